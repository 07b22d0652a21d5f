import "@/components/shared/styles.css";
import { ConfirmView } from "@/components/confirm/ConfirmView";
import { t } from "@/lib/ui/i18n";
import { mount } from "@/lib/ui/mount";

mount(<ConfirmView />, t("app.pageTitle", [t("confirm.title")]));
