import { formatNaira } from '../../../contract/payments';
import { useRole } from '../../app/actors';
import { PageTabs } from '../../ui/PageTabs';
import { ProviderHealthBanner } from './ProviderHealthBanner';

/** What the payments tabs share: the tabs, money as shown. */

export function PaymentTabs({ current }: { current: 'home' | 'histories' | 'reconciliation' }) {
  const role = useRole();
  const tabs = [
    { href: '/payments', label: role === 'admin' ? 'Fees' : 'Pay', current: current === 'home' },
    { href: '/payments/histories', label: 'Payment histories', current: current === 'histories' },
    ...(role === 'admin'
      ? [{ href: '/payments/reconciliation', label: 'Reconciliation', current: current === 'reconciliation' }]
      : []),
  ];
  return (
    <>
      <PageTabs label="Payments" tabs={tabs} />
      {role === 'admin' && <ProviderHealthBanner />}
    </>
  );
}

export const money = (kobo: number) => (
  <span className="whitespace-nowrap tabular-nums">{formatNaira(kobo)}</span>
);
