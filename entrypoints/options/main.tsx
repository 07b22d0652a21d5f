import "@/components/shared/styles.css";
import { HistoryView } from "@/components/options/HistoryView";
import { t } from "@/lib/ui/i18n";
import { mount } from "@/lib/ui/mount";

mount(<HistoryView />, t("app.pageTitle", [t("options.title")]));
