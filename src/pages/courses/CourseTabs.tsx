import { PageTabs } from '../../ui/PageTabs';

/** Course Headers and Exam Diets: the board's two settings of what is examined, and when. */
export function CourseTabs({ current }: { current: 'courses' | 'diets' }) {
  return (
    <PageTabs
      label="Courses and diets"
      tabs={[
        { href: '/courses', label: 'Course headers', current: current === 'courses' },
        { href: '/courses/diets', label: 'Exam diets', current: current === 'diets' },
      ]}
    />
  );
}
