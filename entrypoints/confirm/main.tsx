import "@/components/styles.css";
import { ConfirmView } from "@/components/ConfirmView";
import { mount } from "@/lib/ui/mount";

mount(<ConfirmView />);
