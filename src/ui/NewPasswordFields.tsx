import { TextField } from './controls';

/**
 * The new password and its confirmation (spec section 2's labels), wherever a password is set. The
 * change-password dialog shows no rule (spec section 5: no length or match rule on the client side);
 * the reset page, which the spec does not show, says the length.
 */
export function NewPasswordFields({
  fieldError,
  hint,
}: {
  fieldError: (name: string) => string | undefined;
  hint?: string;
}) {
  return (
    <>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint={hint}
        error={fieldError('password')}
      />
      <TextField
        label="Confirm password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        error={fieldError('password_confirmation')}
      />
    </>
  );
}
