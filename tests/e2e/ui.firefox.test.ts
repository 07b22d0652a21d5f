import { openFirefoxUi } from "./support/ui-firefox";
import { describeUiWalk } from "./support/ui-walk";

describeUiWalk("Firefox", openFirefoxUi);
