import { fromCallback, fromPromise } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import type { FeeStatus, PaymentDetail, PaymentQuote, PaymentStart } from '../../contract/payments';
import { PAYMENT_ENDPOINTS as E } from '../../contract/payments.endpoints';
import type { Role } from '../../contract/roles';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import type { PaymentChoice, PaymentEvent } from '../../machines/payment.machine';
import { send } from './send';

/** The payments area's I/O: the fee form and row actions, a school's payment, and the provider's popup. */

/** Creates (no `id`) or edits a fee; the contract's validator runs first (in `send`). */
export async function saveFee(values: FormValues): Promise<{ message?: string }> {
  const body = {
    title: values.title,
    kind: values.kind,
    basis: values.basis,
    amount: values.amount,
    diet: values.diet,
    course_headers: values.course_headers ?? '',
  };
  const id = Number(values.id);
  const { message } = id
    ? await send(E.updateFee, { params: { id }, body })
    : await send(E.createFee, { body });
  return { message };
}

/** A fee row's status toggle. */
export async function saveFeeStatus(input: { id: number | string; value: string }) {
  const body = { status: input.value as FeeStatus };
  const { data, message } = await send(E.feeStatus, { params: { id: input.id }, body });
  return { value: data.status, message };
}

/** The fees list's row action: delete. */
export const feeActions = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { id } = input.payload as { id: number };
  const { message } = await send(E.deleteFee, { params: { id } });
  return { message };
});

export const loadPayableFees = async () => (await send(E.payableFees)).data;

export const loadUnpaid = async (feeId: number) => (await send(E.unpaid, { params: { id: feeId } })).data;

export const quotePayment = fromPromise<PaymentQuote, PaymentChoice>(
  async ({ input }) => (await send(E.quote, { body: { ...input } })).data,
);

export const startPayment = fromPromise<PaymentStart, PaymentChoice>(
  async ({ input }) => (await send(E.start, { body: { ...input } })).data,
);

export const verifyPayment = (role: Role) =>
  fromPromise<PaymentDetail, { reference: string }>(
    async ({ input }) => (await send(E.verify[role], { params: { reference: input.reference } })).data,
  );

/** The histories' row action: verify a reference again (the list then shows the row as settled). */
export const verifyAction = (role: Role) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { reference } = input.payload as { reference: string };
    const { message } = await send(E.verify[role], { params: { reference } });
    return { message };
  });

export const loadPayment = async (role: Role, reference: string) =>
  (await send(E.payment[role], { params: { reference } })).data;

export async function resolveIssue(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.resolveIssue, {
    params: { id: Number(values.id) },
    body: { note: values.note },
  });
  return { message };
}

// ---------------------------------------------------------------------------------------------------
// The provider's script and popup (Paystack's inline JS v2, or the sandbox's script of the same contract).

interface PaystackCallbacks {
  onSuccess?: (transaction: { reference: string }) => void;
  onCancel?: () => void;
  onError?: (error: { message?: string }) => void;
}
interface PaystackPopConstructor {
  new (): { resumeTransaction(accessCode: string, callbacks: PaystackCallbacks): unknown };
}
const paystackPop = () => (window as unknown as { PaystackPop?: PaystackPopConstructor }).PaystackPop;

const SCRIPT_FAILED: ApiFailure = {
  status: 0,
  message: 'The payment page could not be loaded. Check your connection and try again; nothing was charged.',
  fields: {},
};

/** Loads the provider's script once a page; resolves when PaystackPop is there. */
export const loadProviderScript = (url: string) =>
  fromPromise<void, void>(
    () =>
      new Promise<void>((resolve, reject) => {
        if (paystackPop()) return resolve();
        document.querySelector(`script[data-payment-provider]`)?.remove();
        const script = document.createElement('script');
        script.src = url;
        script.async = true;
        script.dataset.paymentProvider = '';
        script.onload = () => (paystackPop() ? resolve() : reject(SCRIPT_FAILED));
        script.onerror = () => reject(SCRIPT_FAILED);
        document.head.append(script);
      }),
  );

/** Opens the provider's popup on the access code; reports its outcome to the payment machine. */
export const openPopup = fromCallback<PaymentEvent, { accessCode: string }>(({ input, sendBack }) => {
  const Pop = paystackPop();
  if (!Pop) {
    sendBack({ type: 'popup.failed', message: SCRIPT_FAILED.message });
    return;
  }
  new Pop().resumeTransaction(input.accessCode, {
    onSuccess: () => sendBack({ type: 'popup.succeeded' }),
    onCancel: () => sendBack({ type: 'popup.closed' }),
    onError: (error) =>
      sendBack({ type: 'popup.failed', message: error?.message ?? 'The payment page could not be opened.' }),
  });
});
