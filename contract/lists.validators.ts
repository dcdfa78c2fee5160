import vine from '@vinejs/vine';
import { isoDate } from './dates.validators';
import { formValidator } from './formValidator';
import { MAX_ID } from './input';
import { LIST_MESSAGES, type ListDefinition, type SortDirection } from './lists';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './pagination';

/** Far past any real list; keeps OFFSET a sane number whatever the query says. */
export const MAX_PAGE = 100_000;

/** A list's query as the server reads it (lists.validators.ts), with every default filled in. */
export interface ListQuery {
  search: string | null;
  filters: Record<string, string>;
  sort: string;
  direction: SortDirection;
  page: number;
  perPage: number;
  /** Keyset cursors (`?after=`, `?before=`): the rows past this id, in the list's default order. */
  after: number | null;
  before: number | null;
  format: 'json' | 'csv';
}

/** Anything that is not a whole number from 1 is `fallback`; numbers past `max` are `max`. */
const whole = (raw: string | undefined, fallback: number, max: number) => {
  const value = Number(raw);
  return raw && /^\d{1,10}$/.test(raw) && value >= 1 ? Math.min(value, max) : fallback;
};

/** A list's query validator (VineJS, so Standard Schema: the route's `query()` middleware runs it), and
 * what turns its valid parameters into the query the list runs. */
export interface ListQueryValidator {
  validator: ReturnType<typeof formValidator>;
  toQuery: (valid: unknown) => ListQuery;
}

const built = new WeakMap<ListDefinition<unknown>, ListQueryValidator>();

/**
 * The query validator of a list, made from its definition: search and filters are strict (a value the
 * list does not take is a 422 with the list's own message, all problems at once), `sort`, `direction`
 * and `format` too; `page`, `per_page`, `after` and `before` are read leniently, since they come from
 * links and address bars (anything that is not a whole number from 1 is the default; `per_page` is
 * capped at MAX_PER_PAGE). Empty values are not given. Parameters the list does not know are ignored.
 */
export function listQueryValidator(definition: ListDefinition<unknown>): ListQueryValidator {
  const known = built.get(definition);
  if (known) return known;
  const text = (max: number) => vine.string().trim().maxLength(max).optional();
  const filterFields = Object.fromEntries(
    Object.entries(definition.filters).map(([name, spec]) => [
      name,
      spec.kind === 'choice'
        ? vine
            .string()
            .trim()
            .in([...spec.values])
            .optional()
        : spec.kind === 'date'
          ? vine.string().trim().use(isoDate()).optional()
          : spec.pattern
            ? vine.string().trim().maxLength(spec.max).regex(spec.pattern).optional()
            : text(spec.max),
    ]),
  );
  const schema = vine.object({
    ...(definition.search && { search: text(definition.search.max) }),
    ...filterFields,
    sort: vine.string().in(Object.keys(definition.sorts)).optional(),
    direction: vine.enum(['asc', 'desc'] as const).optional(),
    format: vine.enum(['json', 'csv'] as const).optional(),
    page: vine.string().optional(),
    per_page: vine.string().optional(),
    after: vine.string().optional(),
    before: vine.string().optional(),
  });
  const messages: Record<string, string> = {
    'sort.in': LIST_MESSAGES.sortUnknown,
    'sort.string': LIST_MESSAGES.sortUnknown,
    'direction.enum': LIST_MESSAGES.directionUnknown,
    'format.enum': LIST_MESSAGES.formatUnknown,
  };
  if (definition.search) {
    messages['search.maxLength'] = definition.search.message;
    messages['search.string'] = definition.search.message;
  }
  for (const [name, spec] of Object.entries(definition.filters)) {
    for (const rule of ['string', 'in', 'maxLength', 'isoDate']) messages[`${name}.${rule}`] = spec.message;
    if (spec.kind === 'text' && spec.pattern) messages[`${name}.regex`] = spec.message;
  }
  const validator = formValidator(schema, messages);

  /** The validated parameters as the query the list runs: defaults filled in, numbers bounded. */
  const toQuery = (valid: unknown): ListQuery => {
    const input = valid as Record<string, string | undefined>;
    const filters: Record<string, string> = {};
    for (const name of Object.keys(definition.filters)) {
      const value = input[name];
      if (value) filters[name] = value;
    }
    const sort = input.sort ?? definition.defaultSort;
    const page = whole(input.page, 1, MAX_PAGE);
    const cursor = (raw: string | undefined) => {
      const value = whole(raw, 0, MAX_ID + 1);
      return value >= 1 && value <= MAX_ID ? value : null;
    };
    // The first page is always the first rows, whatever cursor came with it.
    const after = page > 1 ? cursor(input.after) : null;
    const before = page > 1 && after === null ? cursor(input.before) : null;
    return {
      search: input.search || null,
      filters,
      sort,
      direction: (input.direction as SortDirection | undefined) ?? definition.sorts[sort].direction,
      page,
      perPage: whole(input.per_page, DEFAULT_PER_PAGE, MAX_PER_PAGE),
      after,
      before,
      format: input.format === 'csv' ? 'csv' : 'json',
    };
  };
  const made = { validator, toQuery };
  built.set(definition, made);
  return made;
}
