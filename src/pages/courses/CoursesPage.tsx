import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { courseHeaderRules } from '../../../contract/candidates';
import {
  COURSE_STATUS_FIELDS,
  COURSE_STATUS_LABELS,
  COURSE_STATUSES,
  type CourseHeaderRow,
  type CourseStatusField,
} from '../../../contract/courses';
import type { Page } from '../../../contract/pagination';
import { COURSE_HEADERS_LIST } from '../../../contract/lists';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { saveCourseHeader, saveCourseStatus } from '../../api/courses';
import { Button, TextField } from '../../ui/controls';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { RowStatusToggle, type ListRef } from '../../ui/StatusToggle';
import { useList, useListDialog } from '../pagedList';
import { CourseTabs } from './CourseTabs';

/** The candidate form's choices carry each course header's statuses: after a change they are stale. */

const STATUS_CHOICES = COURSE_STATUSES.map((status) => ({ value: status, label: status }));

/** What closing each status means, asked before it is done. */
const CLOSE_QUESTION: Record<
  CourseStatusField,
  (code: string) => { title: string; text: string; action: string }
> = {
  indexing_status: (code) => ({
    title: `Close indexing for ${code}?`,
    text: 'The candidate form will refuse it.',
    action: 'Close indexing',
  }),
  registration_status: (code) => ({
    title: `Close registration for ${code}?`,
    text: 'School admins will not be able to register its candidates.',
    action: 'Close registration',
  }),
};

/**
 * Course headers (admin): the list with search and paging, each row's indexing and registration
 * statuses changed in place (one status toggle actor per row and status, spawned by the list), and a
 * dialog to create or edit one. The special rules shown come from the candidate form's own rules.
 */
export default function CoursesPage() {
  const list = useList(COURSE_HEADERS_LIST, {
    row: statusToggleMachine.provide({
      actors: { updateStatus: fromPromise(({ input }) => saveCourseStatus(input)) },
    }),
    rowInputs: Object.fromEntries(
      COURSE_STATUS_FIELDS.map((field) => [field, { field, confirmValues: ['closed'] }]),
    ),
  });
  const dialog = useListDialog(list, saveCourseHeader, 'Course header saved.');
  // The dialog's machine keeps the row being edited (null: a new course header).
  const open = (row: CourseHeaderRow | null) => dialog.send({ type: 'form.open', subject: row });

  const search = useSelector(list, (s) => s.context.query.filters.search ?? '');

  return (
    <section>
      <CourseTabs current="courses" />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Course Headers</h1>
        <Button onClick={() => open(null)}>New course header</Button>
      </div>
      <SearchForm
        onSearch={(filters) => list.send({ type: 'list.filter', filters })}
        className="my-4 flex items-end gap-2"
      >
        <div className="flex-1">
          <TextField label="Search by code or title" name="search" type="search" defaultValue={search} />
        </div>
      </SearchForm>
      <ListView<CourseHeaderRow> list={list} definition={COURSE_HEADERS_LIST}>
        {(data, busy) => <CourseTable data={data} busy={busy} list={list} onEdit={(row) => open(row)} />}
      </ListView>
      <CourseHeaderDialog dialog={dialog} />
    </section>
  );
}

const HEAD = ['Code', 'Title', 'Special rules', 'Candidates', 'Indexing', 'Registration', 'Actions'];

function CourseTable({
  data,
  busy,
  list,
  onEdit,
}: {
  data: Page<CourseHeaderRow>;
  busy: boolean;
  list: ListRef;
  onEdit: (row: CourseHeaderRow) => void;
}) {
  return (
    <ListTable
      head={HEAD}
      busy={busy}
      empty="No course header matches this search."
      isEmpty={data.items.length === 0}
    >
      {data.items.map((row) => {
        const rules = courseHeaderRules(row.code);
        return (
          <tr key={row.id} data-testid={`course-${row.code}`}>
            <th scope="row" className="px-4 py-2 text-left font-mono font-medium">
              {row.code}
            </th>
            <td className="px-4 py-2">{row.title}</td>
            <td className="px-4 py-2 text-slate-600">
              {rules.length ? (
                <ul className="list-disc space-y-1 pl-4">
                  {rules.map((rule) => (
                    <li key={rule}>{rule}</li>
                  ))}
                </ul>
              ) : (
                'None'
              )}
            </td>
            <td className="px-4 py-2">{row.indexed_candidates}</td>
            {COURSE_STATUS_FIELDS.map((field) => (
              <td key={field} className="px-4 py-2">
                <RowStatusToggle
                  list={list}
                  name={field}
                  row={row}
                  choices={STATUS_CHOICES}
                  confirm={CLOSE_QUESTION[field](row.code)}
                  label={`${COURSE_STATUS_LABELS[field]} for ${row.code}`}
                />
              </td>
            ))}
            <td className="px-4 py-2">
              <Button variant="link" aria-label={`Edit ${row.code}`} onClick={() => onEdit(row)}>
                Edit
              </Button>
            </td>
          </tr>
        );
      })}
    </ListTable>
  );
}

/** Create (no subject) or edit a course header, over the page's form dialog machine. */
function CourseHeaderDialog({ dialog }: { dialog: FormDialogRef }) {
  const row = useDialogSubject<CourseHeaderRow>(dialog);
  const locked = !!row && row.indexed_candidates > 0;
  return (
    <PageFormDialog
      actor={dialog}
      title={row ? `Edit course header ${row.code}` : 'New course header'}
      submitLabel="Save"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(error) => (
        <>
          {row && <input type="hidden" name="id" value={row.id} />}
          <TextField
            label="Code"
            name="code"
            defaultValue={row?.code}
            readOnly={locked}
            autoComplete="off"
            maxLength={3}
            error={error('code')}
            hint={
              locked
                ? 'Candidates are indexed under this code and their index numbers carry it, so it cannot change.'
                : 'One capital letter and one or two digits, like A1 or B5.'
            }
          />
          <TextField
            label="Title"
            name="title"
            defaultValue={row?.title}
            autoComplete="off"
            error={error('title')}
          />
        </>
      )}
    </PageFormDialog>
  );
}
