import "@/components/shared/styles.css";
import { ConfirmView } from "@/components/confirm/ConfirmView";
import { createApprovalStore, followApprovals } from "@/lib/ui/approval-store";
import { t } from "@/lib/ui/i18n";
import { mount } from "@/lib/ui/mount";

const approvals = createApprovalStore();
// Before the first render: the window is ready to click one round trip sooner.
followApprovals(approvals);
mount(<ConfirmView store={approvals} />, t("app.pageTitle", [t("confirm.title")]));
