import { Suspense } from 'react';
import type { DietChoice } from '../../../contract/diets';
import type { Role } from '../../../contract/roles';
import { loadDietChoices } from '../../api/dietReads';
import { prefetchResource, useResource } from '../../app/resource';
import { SelectField } from '../../ui/controls';

/** The diets as forms and filters offer them (one load a role, kept as every load is). */
const key = (role: Role) => `diet-choices:${role}`;
export const useDietChoices = (role: Role) => useResource(key(role), () => loadDietChoices(role));
export const prefetchDietChoices = (role: Role) => prefetchResource(key(role), () => loadDietChoices(role));

const label = (diet: DietChoice) =>
  `${diet.name} (${diet.code})${diet.current ? ', current' : ''}${diet.closed ? ', closed' : ''}`;

function Choices({
  role,
  error,
  open,
  hint,
  labelText,
  value,
}: {
  role: Role;
  error?: string;
  open: boolean;
  hint?: string;
  labelText: string;
  value?: string;
}) {
  const diets = useDietChoices(role).filter((diet) => !open || !diet.closed);
  const current = diets.find((diet) => diet.current);
  return (
    <SelectField
      label={labelText}
      name="diet"
      defaultValue={value ?? current?.code ?? ''}
      error={error}
      hint={hint}
    >
      <option value="">Choose a diet</option>
      {diets.map((diet) => (
        <option key={diet.code} value={diet.code}>
          {label(diet)}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * A form's diet (its code): `value` (a record's own) or else the current one chosen to begin with.
 * `open`: only diets not closed (a resit entry is for a diet still to be sat); otherwise every diet (an
 * offence is recorded at a past one). While the choices load (after any save they are asked for again),
 * a record's own diet is still sent with the form, so a Save pressed then keeps it.
 */
export function DietField({
  role,
  error,
  open = false,
  hint,
  label: labelText = 'Diet',
  value,
}: {
  role: Role;
  error?: string;
  open?: boolean;
  hint?: string;
  label?: string;
  value?: string;
}) {
  return (
    <Suspense
      fallback={
        <>
          {value && <input type="hidden" name="diet" value={value} />}
          <SelectField label={labelText} name="diet" disabled>
            <option>Loading diets…</option>
          </SelectField>
        </>
      }
    >
      <Choices role={role} error={error} open={open} hint={hint} labelText={labelText} value={value} />
    </Suspense>
  );
}
