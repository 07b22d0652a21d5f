import { useMemo } from "react";
import { t } from "@/lib/ui/i18n";
import { qrPath } from "@/lib/ui/qr-path";

/** The address as a QR code a phone wallet can scan; dark on white in both themes. */
export function AddressQr({ address }: { address: string }) {
  const { size, d } = useMemo(() => qrPath(address), [address]);
  return (
    <svg
      role="img"
      aria-label={t("fund.qr")}
      viewBox={`0 0 ${size} ${size}`}
      className="h-40 w-40 rounded bg-white"
      shapeRendering="crispEdges"
    >
      <path d={d} fill="#0f172a" />
    </svg>
  );
}
