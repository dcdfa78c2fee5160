/**
 * Payments (spec: /payments, admin and school admin). The board: fees (add, edit, status, delete), every
 * school's payment histories, and the reconciliation queue. A school admin: paying for a fee (the
 * payment machine drives the flow; this view only renders its states) and its own payment histories.
 * A receipt prints from its own page.
 */

import { FeesPage } from './FeesPage';
import { PayPage } from './PayPage';
import { useRole } from '../../app/actors';

export { HistoriesPage } from './HistoriesPage';
export { ReconciliationPage } from './ReconciliationPage';
export { ReceiptPage } from './ReceiptPage';

export default function PaymentsPage() {
  const role = useRole();
  return role === 'admin' ? <FeesPage /> : <PayPage />;
}
