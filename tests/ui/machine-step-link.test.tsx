// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MachineStepLink } from '../../src/statecharts/MachineStepLink';

describe('an audit entry’s link to the statechart', () => {
  it('links a machine-driven action to its transition on /statecharts', () => {
    render(<MachineStepLink action="score_sheet.locked" />);
    const link = screen.getByRole('link', { name: 'scoreSheet: locking --done: lockSheet--> loading' });
    expect(link.getAttribute('href')).toBe('/statecharts#scoreSheet-locking-done-lockSheet-loading');
  });

  it('shows nothing for an action no machine drives', () => {
    const { container } = render(<MachineStepLink action="diet.created" />);
    expect(container.innerHTML).toBe('');
  });
});
