import { openChromiumUi } from "./support/ui-chromium";
import { describeUiWalk } from "./support/ui-walk";

describeUiWalk("Chromium", openChromiumUi);
