import { Suspense, useState, type FormEvent } from 'react';
import type { AuditChainHead, AuditChainVerification } from '../../contract/auditChain';
import type { ApiFailure } from '../../contract/envelope';
import { formatDateTime } from '../../contract/format';
import { loadAuditChainHead, verifyAuditChain } from '../api/auditChain';
import { LoadBoundary, useReloadable } from '../app/resource';
import { Alert, Button, TextField } from '../ui/controls';

/** The load's key: the head is read again after each check, which answers it too. */
const HEAD = 'audit-chain-head';

function HeadFacts({ head }: { head: AuditChainHead }) {
  if (head.id === null) return <p className="mt-1 text-slate-600">The log has no entries yet.</p>;
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-slate-600">Entries</dt>
      <dd>{head.entries.toLocaleString('en-GB')}</dd>
      <dt className="text-slate-600">Last entry</dt>
      <dd>{head.id}</dd>
      <dt className="text-slate-600">Written</dt>
      <dd>
        {head.at ? formatDateTime(head.at) : '–'} <span className="text-slate-500">({head.at})</span>
      </dd>
      <dt className="text-slate-600">Hash</dt>
      <dd className="break-all font-mono text-xs">{head.hash}</dd>
    </dl>
  );
}

function ChainHead({ answered }: { answered: AuditChainVerification | null }) {
  const [loaded] = useReloadable(HEAD, loadAuditChainHead);
  return <HeadFacts head={answered?.head ?? loaded} />;
}

/**
 * The audit log's chain for a board admin (docs/decisions.md, "A tamper-evident audit log"): its head
 * with the last entry's time, to print and compare later, and "Verify the log", which checks every
 * entry's hash and link and answers in words; a printed head's entry and hash may be given, to prove
 * the log still passes through it.
 */
export function AuditChain() {
  const [values, setValues] = useState({ printed_id: '', printed_hash: '' });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AuditChainVerification | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setResult(null);
    try {
      setResult(await verifyAuditChain(values));
    } catch (error) {
      setFailure(error as ApiFailure);
    } finally {
      setBusy(false);
    }
  };
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    error: failure?.fields?.[name]?.[0],
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <section aria-labelledby="audit-chain" className="rounded-md bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <h2 id="audit-chain" className="font-semibold">
        The log&apos;s chain
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Each entry carries a hash of itself and of the entry before it. Print this head: a later check that
        still passes through it shows that nothing up to it was edited, deleted or added.
      </p>
      <LoadBoundary>
        <Suspense fallback={<p className="mt-1 text-slate-600">Loading…</p>}>
          <ChainHead answered={result} />
        </Suspense>
      </LoadBoundary>
      <form onSubmit={verify} className="mt-4 space-y-3" noValidate>
        <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
          <TextField
            label="Printed entry (optional)"
            inputMode="numeric"
            autoComplete="off"
            {...field('printed_id')}
          />
          <TextField
            label="Printed hash (optional)"
            autoComplete="off"
            spellCheck={false}
            {...field('printed_hash')}
          />
        </div>
        <Button type="submit" busy={busy} busyLabel="Verifying the log…">
          Verify the log
        </Button>
      </form>
      <div aria-live="polite" className="mt-3">
        {result && (
          <Alert tone={result.ok ? 'info' : 'error'}>
            {result.message} <span className="text-slate-600">(Checked in {result.seconds} s.)</span>
          </Alert>
        )}
        {failure && !Object.keys(failure.fields ?? {}).length && (
          <Alert tone="error">{failure.message}</Alert>
        )}
      </div>
    </section>
  );
}
