import { sql, type SQL } from 'drizzle-orm';
import type { Aggregate, Bindings, Expr, Value } from '../../contract/ruleExpr';

/**
 * The compiler of contract/ruleExpr.ts's rules to SQL: an expression becomes the SQL expression of the
 * same meaning (the language's meaning is SQL's), and a list of bindings becomes layered selects, each
 * layer adding the bindings whose inputs the layers below have made. Each layer is fenced with
 * `offset 0`, so the planner computes a binding once a row rather than pasting its definition into
 * every expression that reads it.
 */

const NAME = /^[a-z][a-z0-9_]*$/;

/** A name of the rule's as SQL (checked: the rule's names are plain lower-case words). */
export function named(name: string): SQL {
  if (!NAME.test(name)) throw new Error(`Not a rule name: ${name}`);
  return sql.raw(name);
}

/** A column of the layer below. */
const column = (name: string): SQL => sql`l.${named(name)}`;

function literal(value: Value): SQL {
  if (value === null) return sql`null`;
  if (typeof value === 'boolean') return sql.raw(value ? 'true' : 'false');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
    return sql.raw(`(${value})`);
  }
  return sql`${value}::text`;
}

const list = (parts: SQL[], by: string) => sql.join(parts, sql.raw(by));

/** The SQL of an expression whose inputs are the layer's columns. */
function compile(expr: Expr, input: (name: string) => SQL = (name) => column(name)): SQL {
  const go = (e: Expr) => compile(e, input);
  switch (expr.op) {
    case 'input':
      return input(expr.name);
    case 'lit':
      return literal(expr.value);
    case 'add':
      return sql`(${list(expr.args.map(go), ' + ')})`;
    case 'sub':
      return sql`(${list(expr.args.map(go), ' - ')})`;
    case 'mul':
      return sql`(${list(expr.args.map(go), ' * ')})`;
    case 'ceilDiv': {
      // Integer division truncates; a positive remainder goes up (the divisor is positive).
      const [n, d] = [go(expr.num), go(expr.den)];
      return sql`(${n} / ${d} + case when ${n} % ${d} > 0 then 1 else 0 end)`;
    }
    case 'abs':
      return sql`abs(${go(expr.arg)})`;
    case 'greatest':
      return sql`greatest(${list(expr.args.map(go), ', ')})`;
    case 'eq':
      return sql`(${go(expr.a)} = ${go(expr.b)})`;
    case 'ne':
      return sql`(${go(expr.a)} <> ${go(expr.b)})`;
    case 'lt':
      return sql`(${go(expr.a)} < ${go(expr.b)})`;
    case 'gt':
      return sql`(${go(expr.a)} > ${go(expr.b)})`;
    case 'ge':
      return sql`(${go(expr.a)} >= ${go(expr.b)})`;
    case 'and':
      return sql`(${list(expr.args.map(go), ' and ')})`;
    case 'or':
      return sql`(${list(expr.args.map(go), ' or ')})`;
    case 'not':
      return sql`(not ${go(expr.arg)})`;
    case 'isNull':
      return sql`(${go(expr.arg)} is null)`;
    case 'case':
      return sql`(case ${sql.join(
        expr.when.map(([c, t]) => sql`when ${go(c)} then ${go(t)}`),
        sql` `,
      )} else ${go(expr.else)} end)`;
  }
}

/** The names an expression reads. */
function reads(expr: Expr, into = new Set<string>()): Set<string> {
  switch (expr.op) {
    case 'input':
      into.add(expr.name);
      break;
    case 'lit':
      break;
    case 'add':
    case 'sub':
    case 'mul':
    case 'greatest':
    case 'and':
    case 'or':
      for (const a of expr.args) reads(a, into);
      break;
    case 'ceilDiv':
      reads(expr.num, into);
      reads(expr.den, into);
      break;
    case 'abs':
    case 'not':
    case 'isNull':
      reads(expr.arg, into);
      break;
    case 'eq':
    case 'ne':
    case 'lt':
    case 'gt':
    case 'ge':
      reads(expr.a, into);
      reads(expr.b, into);
      break;
    case 'case':
      for (const [c, t] of expr.when) reads(t, reads(c, into));
      reads(expr.else, into);
  }
  return into;
}

/** A select of every column of `base` and every binding, in layers (above). */
export function layered(base: SQL, bindings: Bindings): SQL {
  const depth = new Map<string, number>();
  for (const [name, expr] of bindings) {
    const below = [...reads(expr)].map((n) => depth.get(n) ?? 0);
    depth.set(name, 1 + Math.max(0, ...below));
  }
  let select = base;
  for (let layer = 1; layer <= Math.max(0, ...depth.values()); layer += 1) {
    const here = bindings.filter(([name]) => depth.get(name) === layer);
    const columns = here.map(([name, expr]) => sql`${compile(expr)} as ${named(name)}`);
    select = sql`select l.*, ${sql.join(columns, sql`, `)} from (${select}) l offset 0`;
  }
  return select;
}

/** An aggregate of the layer's rows. */
export const compileAggregate = ({ agg, of }: Aggregate): SQL =>
  agg === 'bool_or' ? sql`bool_or(${compile(of)})` : sql`sum(${compile(of)})::int`;
