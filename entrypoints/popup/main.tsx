import "@/components/shared/styles.css";
import { PopupView } from "@/components/popup/PopupView";
import { t } from "@/lib/ui/i18n";
import { mount } from "@/lib/ui/mount";

mount(<PopupView />, t("app.name"));
