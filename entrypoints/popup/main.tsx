import "@/components/styles.css";
import { PopupView } from "@/components/PopupView";
import { mount } from "@/lib/ui/mount";

mount(<PopupView />);
