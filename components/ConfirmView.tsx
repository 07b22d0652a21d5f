import { Shell } from "./Shell";

export function ConfirmView() {
  return (
    <Shell title="Confirm payment">
      <p>No payment is waiting for your approval.</p>
    </Shell>
  );
}
