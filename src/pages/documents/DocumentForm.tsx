import { useState } from 'react';
import {
  DOCUMENT_MESSAGES,
  DOCUMENT_PARAM_LABELS,
  type DocumentChoice,
  type DocumentOptions,
} from '../../../contract/documents';
import { PRINT_DOCUMENT_PREFIX } from '../../../contract/paths';
import type { Role } from '../../../contract/roles';
import { SelectField, TextField } from '../../ui/controls';
import {
  choose,
  documentQuery,
  initialValues,
  missingParams,
  papersFor,
  paramsToChoose,
  type ChosenValues,
  type ParamToChoose,
} from './choice';
import { PdfDownload } from './PdfDownload';

const linkLook =
  'inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-semibold focus-visible:outline-2';

/**
 * One chosen document: what it is for, its parameters (the required ones marked), then Preview and
 * Print (the print page in a new tab) and Download PDF. Until every required parameter is chosen the
 * three are held back, and the form says which are missing. Give it a `key` of the document.
 */
export function DocumentForm({
  document: doc,
  options,
  role,
}: {
  document: DocumentChoice;
  options: DocumentOptions;
  role: Role;
}) {
  const [values, setValues] = useState<ChosenValues>(() => initialValues(doc, options));
  const set = (param: keyof ChosenValues, value: string) => setValues((old) => choose(old, param, value));
  const missing = missingParams(doc, values, role);
  const query = documentQuery(doc, values, role);
  const queryText = new URLSearchParams(query).toString();
  const page = `${PRINT_DOCUMENT_PREFIX}${doc.ending}${queryText ? `?${queryText}` : ''}`;
  const fixedSchool = role === 'school_admin' && doc.params.school ? options.schools[0] : null;
  return (
    <section
      aria-labelledby="chosen-document"
      className="rounded-md bg-white p-4 ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="chosen-document" tabIndex={-1} className="text-xl font-semibold">
        {doc.title}
      </h2>
      <p className="mt-1 text-slate-600">{doc.purpose}</p>
      <form
        className="mt-4 space-y-3"
        onSubmit={(event) => event.preventDefault()}
        aria-label={`Choose what ${doc.title} shows`}
      >
        {fixedSchool && (
          <p className="text-sm">
            <span className="font-medium text-slate-700">{DOCUMENT_PARAM_LABELS.school}: </span>
            {fixedSchool.name} ({fixedSchool.code})
          </p>
        )}
        {paramsToChoose(doc, role).map((need) => (
          <ParamField key={need.param} need={need} values={values} options={options} onChange={set} />
        ))}
        {doc.variants && doc.variants.length > 1 && (
          <SelectField
            label={DOCUMENT_PARAM_LABELS.variant}
            name="variant"
            value={values.variant ?? ''}
            onChange={(event) => set('variant', event.currentTarget.value)}
          >
            {doc.variants.map((variant) => (
              <option key={variant.value} value={variant.value}>
                {variant.label}
              </option>
            ))}
          </SelectField>
        )}
        {paramsToChoose(doc, role).some((need) => need.required) && (
          <p className="text-xs text-slate-500">* required</p>
        )}
      </form>
      <div className="mt-4 border-t border-slate-200 pt-4">
        {missing.length > 0 ? (
          <p role="status" className="text-sm text-slate-700">
            {DOCUMENT_MESSAGES.paramRequired(DOCUMENT_PARAM_LABELS[missing[0]])}
          </p>
        ) : (
          <div className="flex flex-wrap items-start gap-3">
            <a
              href={page}
              target="_blank"
              rel="noopener"
              className={`${linkLook} bg-brand-700 text-white hover:bg-brand-800`}
            >
              Preview<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <a
              href={`${page}${queryText ? '&' : '?'}print=1`}
              target="_blank"
              rel="noopener"
              className={`${linkLook} bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50`}
            >
              Print<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <PdfDownload key={`${doc.ending}?${queryText}`} role={role} ending={doc.ending} query={query} />
          </div>
        )}
      </div>
    </section>
  );
}

function ParamField({
  need,
  values,
  options,
  onChange,
}: {
  need: ParamToChoose;
  values: ChosenValues;
  options: DocumentOptions;
  onChange: (param: keyof ChosenValues, value: string) => void;
}) {
  const { param, required } = need;
  const label = `${DOCUMENT_PARAM_LABELS[param]}${required ? ' *' : ''}`;
  const common = {
    label,
    name: param,
    required,
    value: values[param] ?? '',
    onChange: (event: { currentTarget: { value: string } }) => onChange(param, event.currentTarget.value),
  };
  const any = required ? 'Choose…' : 'All';
  switch (param) {
    case 'diet':
      return (
        <SelectField {...common}>
          <option value="">{any}</option>
          {options.diets.map((diet) => (
            <option key={diet.code} value={diet.code}>
              {diet.name} ({diet.code})
            </option>
          ))}
        </SelectField>
      );
    case 'school':
      return (
        <SelectField {...common}>
          <option value="">{required ? any : 'All training schools'}</option>
          {options.schools.map((school) => (
            <option key={school.code} value={school.code}>
              {school.code} · {school.name}
            </option>
          ))}
        </SelectField>
      );
    case 'course_header':
      return (
        <SelectField {...common}>
          <option value="">{required ? any : 'All course headers'}</option>
          {options.courseHeaders.map((course) => (
            <option key={course.code} value={course.code}>
              {course.code} · {course.name}
            </option>
          ))}
        </SelectField>
      );
    case 'paper': {
      const papers = papersFor(options, values.course_header);
      return (
        <SelectField
          {...common}
          disabled={!values.course_header}
          hint={values.course_header ? undefined : 'Choose the course header first.'}
        >
          <option value="">{required ? any : 'All papers'}</option>
          {papers.map((paper) => (
            <option key={paper.id} value={String(paper.id)}>
              {paper.name}
            </option>
          ))}
        </SelectField>
      );
    }
    case 'candidate':
      return (
        <TextField
          {...common}
          autoComplete="off"
          spellCheck={false}
          placeholder="WHB/25/A1/000001"
          hint="The candidate's index number."
        />
      );
  }
}
