import { Suspense } from 'react';
import { formatDateTime } from '../../../contract/format';
import { PAYMENT_ENDPOINTS as E } from '../../../contract/payments.endpoints';
import { send } from '../../api/send';
import { useResource } from '../../app/resource';
import { Alert } from '../../ui/controls';

// A banner that cannot load shows nothing: the pages under it work without it.
const loadHealth = () =>
  send(E.providerHealth)
    .then((r) => r.data)
    .catch(() => null);

function Banner() {
  const health = useResource('payment-provider-health', loadHealth);
  if (!health?.alert || !health.failing) return null;
  const { failing } = health;
  return (
    <div className="my-3" data-testid="provider-health">
      <Alert tone="error">
        <strong>Payments are failing</strong> since {formatDateTime(failing.since)}: {failing.label}
        {failing.http_status ? ` (HTTP ${failing.http_status})` : ''}. Schools are told to try again later;
        this clears when the provider answers again.
      </Alert>
    </div>
  );
}

/** The board's payments pages: the provider refusing our key, or down for minutes, with why and since when. */
export function ProviderHealthBanner() {
  return (
    <Suspense fallback={null}>
      <Banner />
    </Suspense>
  );
}
