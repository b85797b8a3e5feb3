/**
 * Hiding and showing the sidebar (Ctrl+B, its « button, the status bar's "☰ Sidebar") without
 * losing the keyboard: focus inside the sidebar as it hides goes to the button that brings it
 * back, and showing it from that button puts focus on the sidebar's own hide button.
 */
import { layout, useLayout } from '../state/layout-store';

function focusSoon(testId: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)?.focus());
}

export function toggleSidebar(hidden = !useLayout.getState().sidebarHidden): void {
  const active = document.activeElement;
  const fromSidebar = active instanceof Element && active.closest('[data-testid="sidebar"]') !== null;
  const fromShowButton = active instanceof Element && active.closest('[data-testid="sidebar-show"]') !== null;
  layout.toggleSidebar(hidden);
  if (hidden && fromSidebar) focusSoon('sidebar-show');
  else if (!hidden && fromShowButton) focusSoon('sidebar-hide');
}
