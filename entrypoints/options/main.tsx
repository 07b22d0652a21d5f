import "@/components/styles.css";
import { HistoryView } from "@/components/HistoryView";
import { mount } from "@/lib/ui/mount";

mount(<HistoryView />);
