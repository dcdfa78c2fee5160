import vine, { SimpleMessagesProvider, VineValidator } from '@vinejs/vine';
import type { SchemaTypes } from '@vinejs/vine/types';

/**
 * A validator for a form's fields with its own messages, reading empty strings as not given (HTML forms
 * send them for empty inputs). Set per validator, never on the shared `vine`, so no validator's
 * behaviour depends on which module happened to load first.
 */
export function formValidator<Schema extends SchemaTypes>(schema: Schema, messages: Record<string, string>) {
  // The metadata type vine.create gives, so validate() takes the data alone.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return new VineValidator<Schema, Record<string, any> | undefined>(schema, {
    convertEmptyStringsToNull: true,
    messagesProvider: new SimpleMessagesProvider(messages),
    errorReporter: vine.errorReporter,
  });
}
