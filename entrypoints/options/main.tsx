import "@/components/shared/styles.css";
import { HistoryView } from "@/components/options/HistoryView";
import { mount } from "@/lib/ui/mount";

mount(<HistoryView />);
