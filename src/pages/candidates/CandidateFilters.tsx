import { Suspense } from 'react';
import { REG_STATUSES } from '../../../contract/candidates';
import { useFormOptions } from '../../app/formOptions';
import { SelectField, TextField } from '../../ui/controls';
import { SearchForm } from '../../ui/ListView';
import type { Role } from '../../../contract/roles';
import { useDietChoices } from '../diets/DietField';

/** Registration is per diet: the list shows the current one's unless another is chosen. */
function DietSelect({ role, value }: { role: Role; value: string }) {
  const diets = useDietChoices(role);
  const current = diets.find((diet) => diet.current);
  return (
    <SelectField label="Diet" name="diet" defaultValue={value}>
      <option value="">{current ? `${current.name} (current)` : 'Current diet'}</option>
      {diets
        .filter((diet) => !diet.current)
        .map((diet) => (
          <option key={diet.code} value={diet.code}>
            {diet.name}
            {diet.closed ? ' (closed)' : ''}
          </option>
        ))}
    </SelectField>
  );
}

export type FilterName =
  'search' | 'school' | 'course_header' | 'year' | 'diet' | 'reg_status' | 'verified' | 'registration_fee';

function CourseAndSchoolSelects({ filters, show }: { filters: Record<string, string>; show: FilterName[] }) {
  const options = useFormOptions();
  return (
    <>
      {show.includes('school') && (
        <SelectField label="School" name="school" defaultValue={filters.school ?? ''}>
          <option value="">All schools</option>
          {options.schools.map((s) => (
            <option key={s.code} value={s.code}>
              {s.code} — {s.name}
            </option>
          ))}
        </SelectField>
      )}
      {show.includes('course_header') && (
        <SelectField label="Course header" name="course_header" defaultValue={filters.course_header ?? ''}>
          <option value="">All course headers</option>
          {options.course_headers.map((c) => (
            <option key={c.code} value={c.code}>
              {c.code} — {c.title}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}

/** The search and filters of a candidate list; submitting asks the list for page 1 of the new query. */
export function CandidateFilters({
  filters,
  show,
  onFilter,
  withOptions = true,
  role = 'admin',
}: {
  filters: Record<string, string>;
  show: FilterName[];
  onFilter: (filters: Record<string, string>) => void;
  /** School admins have no form-options endpoint: they filter by text and status only. */
  withOptions?: boolean;
  /** Whose diet choices the diet filter offers. */
  role?: Role;
}) {
  return (
    <SearchForm onSearch={onFilter} className="mb-4 grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-6">
      {show.includes('search') && (
        <div className="lg:col-span-2">
          <TextField
            label="Name or index number"
            name="search"
            type="search"
            defaultValue={filters.search ?? ''}
          />
        </div>
      )}
      {withOptions && (
        <Suspense fallback={null}>
          <CourseAndSchoolSelects filters={filters} show={show} />
        </Suspense>
      )}
      {show.includes('year') && (
        <TextField
          label="Year"
          name="year"
          inputMode="numeric"
          maxLength={4}
          defaultValue={filters.year ?? ''}
        />
      )}
      {show.includes('diet') && (
        <Suspense fallback={null}>
          <DietSelect role={role} value={filters.diet ?? ''} />
        </Suspense>
      )}
      {show.includes('reg_status') && (
        <SelectField label="Registration" name="reg_status" defaultValue={filters.reg_status ?? ''}>
          <option value="">Any</option>
          {REG_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </SelectField>
      )}
      {show.includes('verified') && (
        <SelectField label="Documents" name="verified" defaultValue={filters.verified ?? ''}>
          <option value="">Any</option>
          <option value="true">verified</option>
          <option value="false">unverified</option>
        </SelectField>
      )}
      {show.includes('registration_fee') && (
        <SelectField
          label="Registration fee"
          name="registration_fee"
          defaultValue={filters.registration_fee ?? ''}
        >
          <option value="">Any</option>
          <option value="paid">paid</option>
          <option value="unpaid">unpaid</option>
        </SelectField>
      )}
    </SearchForm>
  );
}
