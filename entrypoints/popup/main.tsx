import "@/components/shared/styles.css";
import { PopupView } from "@/components/popup/PopupView";
import { mount } from "@/lib/ui/mount";

mount(<PopupView />);
