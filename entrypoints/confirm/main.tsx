import "@/components/shared/styles.css";
import { ConfirmView } from "@/components/confirm/ConfirmView";
import { mount } from "@/lib/ui/mount";

mount(<ConfirmView />);
