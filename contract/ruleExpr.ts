/**
 * A small language for rules written as data, so that one definition runs in two places: evaluated
 * here, row by row (the browser as a marker types, the server where it needs one script), and compiled
 * to SQL by the server (server/scores/ruleSql.ts) where it computes thousands of rows where the data is.
 * Its meaning is SQL's, so that both agree on every value: an arithmetic or comparison with a null is
 * null, `and`/`or`/`not` are three-valued, a `case` takes the first branch whose condition is true (null
 * is not), and `ceilDiv` is the ceiling of an integer division by a positive integer.
 */

export type Value = number | boolean | string | null;

export type Expr =
  | { op: 'input'; name: string }
  | { op: 'lit'; value: Value }
  | { op: 'add' | 'sub' | 'mul'; args: Expr[] }
  | { op: 'ceilDiv'; num: Expr; den: Expr }
  | { op: 'abs'; arg: Expr }
  | { op: 'greatest'; args: Expr[] }
  | { op: 'eq' | 'ne' | 'lt' | 'gt' | 'ge'; a: Expr; b: Expr }
  | { op: 'and' | 'or'; args: Expr[] }
  | { op: 'not'; arg: Expr }
  | { op: 'isNull'; arg: Expr }
  | { op: 'case'; when: [Expr, Expr][]; else: Expr };

/** Named expressions, each reading the inputs and the names bound before it. */
export type Bindings = [string, Expr][];

/** An aggregate over a group of rows (a candidate's papers): SQL's `bool_or` and `sum`, nulls skipped. */
export type Aggregate = { agg: 'bool_or' | 'sum'; of: Expr };

export const input = (name: string): Expr => ({ op: 'input', name });
export const lit = (value: Value): Expr => ({ op: 'lit', value });
export const add = (...args: Expr[]): Expr => ({ op: 'add', args });
export const sub = (a: Expr, b: Expr): Expr => ({ op: 'sub', args: [a, b] });
export const mul = (...args: Expr[]): Expr => ({ op: 'mul', args });
export const ceilDiv = (num: Expr, den: Expr): Expr => ({ op: 'ceilDiv', num, den });
export const abs = (arg: Expr): Expr => ({ op: 'abs', arg });
export const greatest = (...args: Expr[]): Expr => ({ op: 'greatest', args });
export const eq = (a: Expr, b: Expr): Expr => ({ op: 'eq', a, b });
export const ne = (a: Expr, b: Expr): Expr => ({ op: 'ne', a, b });
export const lt = (a: Expr, b: Expr): Expr => ({ op: 'lt', a, b });
export const gt = (a: Expr, b: Expr): Expr => ({ op: 'gt', a, b });
export const ge = (a: Expr, b: Expr): Expr => ({ op: 'ge', a, b });
export const and = (...args: Expr[]): Expr => ({ op: 'and', args });
export const or = (...args: Expr[]): Expr => ({ op: 'or', args });
export const not = (arg: Expr): Expr => ({ op: 'not', arg });
export const isNull = (arg: Expr): Expr => ({ op: 'isNull', arg });
export const when = (branches: [Expr, Expr][], otherwise: Expr = lit(null)): Expr => ({
  op: 'case',
  when: branches,
  else: otherwise,
});

export type Env = Record<string, Value>;

const num = (v: Value) => v as number;

/** The value of an expression in an environment of inputs, with SQL's meaning (above). */
function evaluate(expr: Expr, env: Env): Value {
  switch (expr.op) {
    case 'input': {
      const value = env[expr.name];
      if (value === undefined) throw new Error(`No input ${expr.name}`);
      return value;
    }
    case 'lit':
      return expr.value;
    case 'add':
    case 'sub':
    case 'mul': {
      const values = expr.args.map((a) => evaluate(a, env));
      if (values.some((v) => v === null)) return null;
      const [first, ...rest] = values.map(num);
      if (expr.op === 'add') return rest.reduce((s, v) => s + v, first);
      if (expr.op === 'sub') return rest.reduce((s, v) => s - v, first);
      return rest.reduce((s, v) => s * v, first);
    }
    case 'ceilDiv': {
      const [n, d] = [evaluate(expr.num, env), evaluate(expr.den, env)];
      return n === null || d === null ? null : Math.ceil(num(n) / num(d));
    }
    case 'abs': {
      const v = evaluate(expr.arg, env);
      return v === null ? null : Math.abs(num(v));
    }
    case 'greatest': {
      // SQL's greatest skips nulls.
      const values = expr.args.map((a) => evaluate(a, env)).filter((v) => v !== null);
      return values.length ? Math.max(...values.map(num)) : null;
    }
    case 'eq':
    case 'ne':
    case 'lt':
    case 'gt':
    case 'ge': {
      const [a, b] = [evaluate(expr.a, env), evaluate(expr.b, env)];
      if (a === null || b === null) return null;
      if (expr.op === 'eq') return a === b;
      if (expr.op === 'ne') return a !== b;
      if (expr.op === 'lt') return num(a) < num(b);
      if (expr.op === 'gt') return num(a) > num(b);
      return num(a) >= num(b);
    }
    case 'and':
    case 'or': {
      const values = expr.args.map((a) => evaluate(a, env));
      const decisive = expr.op === 'and' ? false : true;
      if (values.includes(decisive)) return decisive;
      return values.includes(null) ? null : !decisive;
    }
    case 'not': {
      const v = evaluate(expr.arg, env);
      return v === null ? null : !v;
    }
    case 'isNull':
      return evaluate(expr.arg, env) === null;
    case 'case': {
      for (const [condition, then] of expr.when)
        if (evaluate(condition, env) === true) return evaluate(then, env);
      return evaluate(expr.else, env);
    }
  }
}

/** The inputs with each binding's value added, in order. */
export function bind(bindings: Bindings, inputs: Env): Env {
  const env = { ...inputs };
  for (const [name, expr] of bindings) env[name] = evaluate(expr, env);
  return env;
}

/** An aggregate's value over a group of environments, as SQL's (null over none, or over nulls alone). */
export function aggregate({ agg, of }: Aggregate, group: Env[]): Value {
  const values = group.map((env) => evaluate(of, env)).filter((v) => v !== null);
  if (!values.length) return null;
  return agg === 'bool_or' ? values.some(Boolean) : values.map(num).reduce((a, b) => a + b, 0);
}
