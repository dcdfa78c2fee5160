import { fromCallback, fromPromise } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import {
  PAYMENT_PATHS,
  paymentPrefix,
  type FeeRow,
  type FeeStatus,
  type PayableFees,
  type PaymentDetail,
  type PaymentQuote,
  type PaymentStart,
  type UnpaidCandidate,
} from '../../contract/payments';
import { feeValidator } from '../../contract/payments.validators';
import type { Role } from '../../contract/roles';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import type { PaymentChoice, PaymentEvent } from '../../machines/payment.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/** The payments area's I/O: the fee form and row actions, a school's payment, and the provider's popup. */

/** Creates (no `id`) or edits a fee; the contract's validator runs first. */
export async function saveFee(values: FormValues): Promise<{ message?: string }> {
  const body = {
    title: values.title,
    kind: values.kind,
    basis: values.basis,
    amount: values.amount,
    diet: values.diet,
    course_headers: values.course_headers ?? '',
  };
  await checkInBrowser(feeValidator, body);
  const id = Number(values.id);
  const response = await call<FeeRow>(id ? PAYMENT_PATHS.fee(id) : PAYMENT_PATHS.fees, {
    method: 'POST',
    body,
  });
  return { message: messageOf(response) };
}

/** A fee row's status toggle. */
export async function saveFeeStatus(input: { id: number | string; value: string }) {
  const response = await call<FeeRow>(PAYMENT_PATHS.feeStatus(Number(input.id)), {
    method: 'POST',
    body: { status: input.value as FeeStatus },
  });
  return { value: response.data!.status, message: messageOf(response) };
}

/** The fees list's row action: delete. */
export const feeActions = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { id } = input.payload as { id: number };
  const response = await call(PAYMENT_PATHS.feeDelete(id), { method: 'POST' });
  return { message: messageOf(response) };
});

export const loadPayableFees = async () => (await call<PayableFees>(PAYMENT_PATHS.payableFees)).data!;

export const loadUnpaid = async (feeId: number) =>
  (await call<UnpaidCandidate[]>(PAYMENT_PATHS.unpaid(feeId))).data!;

export const quotePayment = fromPromise<PaymentQuote, PaymentChoice>(
  async ({ input }) =>
    (await call<PaymentQuote>(PAYMENT_PATHS.quote, { method: 'POST', body: { ...input } })).data!,
);

export const startPayment = fromPromise<PaymentStart, PaymentChoice>(
  async ({ input }) =>
    (await call<PaymentStart>(PAYMENT_PATHS.start, { method: 'POST', body: { ...input } })).data!,
);

export const verifyPayment = (role: Role) =>
  fromPromise<PaymentDetail, { reference: string }>(
    async ({ input }) =>
      (
        await call<PaymentDetail>(PAYMENT_PATHS.verify(paymentPrefix(role), input.reference), {
          method: 'POST',
        })
      ).data!,
  );

/** The histories' row action: verify a reference again (the list then shows the row as settled). */
export const verifyAction = (role: Role) =>
  fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
    const { reference } = input.payload as { reference: string };
    const response = await call(PAYMENT_PATHS.verify(paymentPrefix(role), reference), { method: 'POST' });
    return { message: messageOf(response) };
  });

export const loadPayment = async (role: Role, reference: string) =>
  (await call<PaymentDetail>(PAYMENT_PATHS.one(paymentPrefix(role), reference))).data!;

export async function resolveIssue(values: FormValues): Promise<{ message?: string }> {
  const response = await call(PAYMENT_PATHS.resolveIssue(Number(values.id)), {
    method: 'POST',
    body: { note: values.note },
  });
  return { message: messageOf(response) };
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
