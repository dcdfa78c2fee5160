/**
 * The rule that settles a script and makes a result, written once, as data (contract/ruleExpr.ts): the
 * functions below evaluate it for one script or one result (the grid as a marker types, the marks'
 * checks); server/scores/resultsSql.ts compiles the same bindings to the SQL that computes a diet's
 * results where the marks are. docs/decisions.md "Scores and results" says the rule in words, and
 * "Issue 28: results where the data is" how it runs.
 */

import {
  abs,
  add,
  aggregate,
  and,
  bind,
  ceilDiv,
  eq,
  ge,
  greatest,
  gt,
  input,
  isNull,
  lit,
  lt,
  mul,
  ne,
  sub,
  not,
  or,
  when,
  type Aggregate,
  type Bindings,
  type Env,
  type Expr,
} from './ruleExpr';

export interface PaperRules {
  /** Each question's maximum, tenths (0: the paper has no such question). */
  q_max: number[];
  /** Largest difference between the markers' marks for one question, tenths. */
  tolerance_question: number;
  /** Largest difference between the markers' totals, tenths. */
  tolerance_total: number;
}

export interface ScriptMarks {
  marks: (number | null)[];
  absent: boolean;
}

export type Agreement =
  | { kind: 'incomplete' }
  | { kind: 'absent' }
  | { kind: 'agreed'; total: number }
  | { kind: 'flagged'; why: 'question' | 'total' | 'absence' };

export interface GradeBand {
  grade: string;
  /** The lowest final mark (percent) with this grade. */
  min: number;
}

export interface ResultRules {
  /** Percent of the final mark that is the in-course total; the rest is the exam. */
  in_course_weight: number;
  pass_mark: number;
  /** Highest first; the last starts at 0. */
  grade_bands: GradeBand[];
}

const WITHHELD_NOTE = 'Under an exam sanction for this diet, or an offence recorded at it.';

// ---------------------------------------------------------------------------------------------------
// A script: marker one's, marker two's and the third marker's marks on one paper.

export const MARKERS = ['one', 'two', 'three'] as const;
type Marker = (typeof MARKERS)[number];
const Q = [1, 2, 3, 4, 5] as const;

/**
 * A script's inputs: the paper's `qmax1`…`qmax5`, `tol_q`, `tol_t`; for each marker `<m>_present` (a
 * row was saved), `<m>_absent` and `<m>_q1`…`<m>_q5` (null when no row: SQL's left join).
 */
export const SCRIPT_INPUTS = [
  ...Q.map((i) => `qmax${i}`),
  'tol_q',
  'tol_t',
  ...MARKERS.flatMap((m) => [`${m}_present`, `${m}_absent`, ...Q.map((i) => `${m}_q${i}`)]),
];

const v = input;
const mark = (m: Marker, i: number) => v(`${m}_q${i}`);

/** The sum of a marker's marks, null when absent or while a question worth something has no mark. */
const totalExpr = (m: Marker): Expr =>
  when(
    [[v(`${m}_absent`), lit(null)]],
    add(...Q.map((i) => when([[eq(v(`qmax${i}`), lit(0)), lit(0)]], mark(m, i)))),
  );

/** Half the sum of two marks in tenths, a half tenth going to the candidate. */
const meanUp = (a: Expr, b: Expr) => ceilDiv(add(a, b), lit(2));

type Row = { when: Expr; kind: Agreement['kind']; why?: string; total?: Expr };

/** A decision table as three bindings, `<name>_kind`, `<name>_why` and `<name>_total`, the first true row's. */
function table(name: string, rows: Row[], otherwise: Omit<Row, 'when'>): Bindings {
  const column = (pick: (row: Omit<Row, 'when'>) => Expr) =>
    when(
      rows.map((row) => [row.when, pick(row)]),
      pick(otherwise),
    );
  return [
    [`${name}_kind`, column((row) => lit(row.kind))],
    [`${name}_why`, column((row) => lit(row.why ?? null))],
    [`${name}_total`, column((row) => row.total ?? lit(null))],
  ];
}

const [t1, t2, t3] = [v('one_total'), v('two_total'), v('three_total')];
const gap = (a: Expr) => abs(sub(a, t3));

/**
 * Marker one's and marker two's scripts (first): both absent, absent; one absent and one marked,
 * flagged; every question within `tol_q` and the totals within `tol_t`, agreed at the mean of the two
 * totals (a half tenth up); otherwise flagged for a third marker. A flagged script's mark (third): the
 * mean of the third mark and whichever of the first two is nearer to it (equally near: the higher), a
 * half tenth up; a third marker who finds the script absent makes it absent; absent first marks count
 * as no mark. The decided `kind` and `total` are the first's, or the third's where the first is flagged.
 */
export const SCRIPT_RULE: Bindings = [
  ...MARKERS.map((m): [string, Expr] => [`${m}_total`, totalExpr(m)]),
  ['paper_max', add(...Q.map((i) => v(`qmax${i}`)))],
  ...table(
    'first',
    [
      { when: not(and(v('one_present'), v('two_present'))), kind: 'incomplete' },
      { when: and(v('one_absent'), v('two_absent')), kind: 'absent' },
      { when: ne(v('one_absent'), v('two_absent')), kind: 'flagged', why: 'absence' },
      { when: or(isNull(t1), isNull(t2)), kind: 'incomplete' },
      {
        when: or(
          ...Q.map((i) =>
            and(ne(v(`qmax${i}`), lit(0)), gt(abs(sub(mark('one', i), mark('two', i))), v('tol_q'))),
          ),
        ),
        kind: 'flagged',
        why: 'question',
      },
      { when: gt(abs(sub(t1, t2)), v('tol_t')), kind: 'flagged', why: 'total' },
    ],
    { kind: 'agreed', total: meanUp(t1, t2) },
  ),
  [
    'nearest',
    when(
      [
        [isNull(t1), t2],
        [isNull(t2), t1],
        [lt(gap(t1), gap(t2)), t1],
        [lt(gap(t2), gap(t1)), t2],
      ],
      greatest(t1, t2),
    ),
  ],
  ...table(
    'third',
    [
      { when: not(v('three_present')), kind: 'flagged', why: 'total' },
      { when: v('three_absent'), kind: 'absent' },
      { when: isNull(t3), kind: 'incomplete' },
      { when: isNull(v('nearest')), kind: 'agreed', total: t3 },
    ],
    { kind: 'agreed', total: meanUp(v('nearest'), t3) },
  ),
  ['decided_kind', when([[eq(v('first_kind'), lit('flagged')), v('third_kind')]], v('first_kind'))],
  ['decided_total', when([[eq(v('first_kind'), lit('flagged')), v('third_total')]], v('first_total'))],
];

/** A candidate's papers folded into what the result reads (each paper the candidate sits: one script). */
export const PAPER_FOLD: Record<string, Aggregate> = {
  any_absent: { agg: 'bool_or', of: eq(v('decided_kind'), lit('absent')) },
  any_unsettled: {
    agg: 'bool_or',
    of: or(eq(v('decided_kind'), lit('incomplete')), eq(v('decided_kind'), lit('flagged'))),
  },
  got: { agg: 'sum', of: v('decided_total') },
  max: { agg: 'sum', of: v('paper_max') },
};

// ---------------------------------------------------------------------------------------------------
// A result.

/** The final mark (tenths of a percent) from the exam's and the in-course total, a half tenth up. */
const finalExpr = (rules: ResultRules, exam: Expr, inCourse: Expr): Expr =>
  when(
    [[isNull(inCourse), exam]],
    ceilDiv(
      add(mul(exam, lit(100 - rules.in_course_weight)), mul(inCourse, lit(rules.in_course_weight))),
      lit(100),
    ),
  );

const gradeExpr = (rules: ResultRules, final: Expr): Expr =>
  when(
    rules.grade_bands.map((band): [Expr, Expr] => [ge(final, lit(band.min * 10)), lit(band.grade)]),
    lit(rules.grade_bands[rules.grade_bands.length - 1]?.grade ?? ''),
  );

/**
 * The inputs of a result: `has_papers` (the pair has exam sheets), the PAPER_FOLD of the candidate's
 * scripts, `has_in_course` (the pair has in-course sheets) and `in_course` (the candidate's total),
 * `withheld` (a sanction for the diet, or an offence at it), `held` and `hold_reason` (the board's hold).
 */
export const RESULT_INPUTS = [
  'has_papers',
  ...Object.keys(PAPER_FOLD),
  'has_in_course',
  'in_course',
  'withheld',
  'held',
  'hold_reason',
];

/** The columns of a result row the rule makes. */
export const RESULT_OUTPUTS = [
  'exam_mark',
  'in_course_mark',
  'final_mark',
  'grade',
  'outcome',
  'note',
] as const;

/**
 * A result: absent from a paper, else incomplete while a paper's script is unsettled (or the pair has
 * no papers, or the in-course total counts and is missing); the exam mark is the agreed marks over the
 * papers' maxima as a percent (tenths, a half tenth up); the final mark weights the in-course total;
 * pass at the pass mark; graded by the bands. Held or withheld before anything else, with no marks.
 */
export const resultRule = (rules: ResultRules): Bindings => [
  [
    'pending',
    when([
      [not(v('has_papers')), lit('incomplete')],
      [v('any_absent'), lit('absent')],
      [v('any_unsettled'), lit('incomplete')],
    ]),
  ],
  [
    'exam',
    when([[and(isNull(v('pending')), gt(v('max'), lit(0))), ceilDiv(mul(v('got'), lit(1000)), v('max'))]]),
  ],
  ['in_course_used', when([[v('has_in_course'), v('in_course')]])],
  [
    'waiting',
    when([
      [not(isNull(v('pending'))), v('pending')],
      [
        and(v('has_in_course'), lit(rules.in_course_weight > 0), isNull(v('in_course_used'))),
        lit('incomplete'),
      ],
    ]),
  ],
  [
    'computed_final',
    when([
      [and(isNull(v('waiting')), not(isNull(v('exam')))), finalExpr(rules, v('exam'), v('in_course_used'))],
    ]),
  ],
  ['shown', not(or(v('withheld'), v('held')))],
  ['exam_mark', when([[v('shown'), v('exam')]])],
  ['final_mark', when([[v('shown'), v('computed_final')]])],
  ['in_course_mark', when([[not(isNull(v('final_mark'))), v('in_course_used')]])],
  ['grade', when([[not(isNull(v('final_mark'))), gradeExpr(rules, v('final_mark'))]])],
  [
    'outcome',
    when(
      [
        [v('withheld'), lit('withheld')],
        [v('held'), lit('held')],
        [not(isNull(v('waiting'))), v('waiting')],
        [ge(v('computed_final'), lit(rules.pass_mark * 10)), lit('pass')],
      ],
      lit('fail'),
    ),
  ],
  [
    'note',
    when([
      [v('withheld'), lit(WITHHELD_NOTE)],
      [v('held'), v('hold_reason')],
    ]),
  ],
];

// ---------------------------------------------------------------------------------------------------
// The rule for one script or one result, evaluated here.

const paperEnv = (rules: PaperRules): Env => ({
  ...Object.fromEntries(Q.map((i) => [`qmax${i}`, rules.q_max[i - 1] ?? 0])),
  tol_q: rules.tolerance_question,
  tol_t: rules.tolerance_total,
});

const markerEnv = (m: Marker, script: ScriptMarks | null): Env => ({
  [`${m}_present`]: script !== null,
  [`${m}_absent`]: script ? script.absent : null,
  ...Object.fromEntries(Q.map((i) => [`${m}_q${i}`, script ? (script.marks[i - 1] ?? null) : null])),
});

/** The SCRIPT_RULE's inputs for one script. */
const scriptInputs = (
  rules: PaperRules,
  one: ScriptMarks | null,
  two: ScriptMarks | null,
  three: ScriptMarks | null,
): Env => ({
  ...paperEnv(rules),
  ...markerEnv('one', one),
  ...markerEnv('two', two),
  ...markerEnv('three', three),
});

const agreementFrom = (env: Env, name: string): Agreement => {
  const kind = env[`${name}_kind`] as Agreement['kind'];
  if (kind === 'agreed') return { kind, total: env[`${name}_total`] as number };
  if (kind === 'flagged') return { kind, why: env[`${name}_why`] as 'question' | 'total' | 'absence' };
  return { kind };
};

/** The sum of a script's marks (tenths), or null while a question worth something has no mark. */
export function totalOf(rules: Pick<PaperRules, 'q_max'>, script: ScriptMarks): number | null {
  const env = {
    ...paperEnv({ ...rules, tolerance_question: 0, tolerance_total: 0 }),
    ...markerEnv('one', script),
  };
  return bind([SCRIPT_RULE[0]], env).one_total as number | null;
}

/** Marker one's and marker two's scripts → agreed or flagged (SCRIPT_RULE's first). */
export const agreement = (rules: PaperRules, one: ScriptMarks | null, two: ScriptMarks | null): Agreement =>
  agreementFrom(bind(SCRIPT_RULE, scriptInputs(rules, one, two, null)), 'first');

/** A flagged script's final mark from the third marker's (SCRIPT_RULE's third). */
export const thirdMarkerDecides = (
  rules: PaperRules,
  one: ScriptMarks,
  two: ScriptMarks,
  three: ScriptMarks | null,
): Agreement => agreementFrom(bind(SCRIPT_RULE, scriptInputs(rules, one, two, three)), 'third');

/** The result's columns for one candidate from its scripts' bound environments and its other inputs. */
export function resultOf(rules: ResultRules, scripts: Env[], inputs: Env) {
  const fold = Object.fromEntries(
    Object.entries(PAPER_FOLD).map(([name, agg]) => [name, aggregate(agg, scripts)]),
  );
  const env = bind(resultRule(rules), { ...inputs, ...fold });
  return Object.fromEntries(RESULT_OUTPUTS.map((name) => [name, env[name]])) as {
    exam_mark: number | null;
    in_course_mark: number | null;
    final_mark: number | null;
    grade: string | null;
    outcome: string;
    note: string | null;
  };
}

/** The final mark (tenths of a percent) from the exam's percent and the in-course total. */
export const finalMark = (rules: ResultRules, examTenths: number, inCourseTenths: number | null): number =>
  bind([['f', finalExpr(rules, v('exam'), v('ic'))]], { exam: examTenths, ic: inCourseTenths }).f as number;

/** The grade of a final mark (tenths of a percent). */
export const gradeOf = (rules: ResultRules, finalTenths: number): string =>
  bind([['g', gradeExpr(rules, v('final'))]], { final: finalTenths }).g as string;
