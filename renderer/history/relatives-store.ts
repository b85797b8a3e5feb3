import { create } from 'zustand';

/** Two relatives (a session and its parent) shown side by side from their fork point. */
export interface RelativesRequest {
  left: string;
  right: string;
  /** The fork started before this user message of the parent (none: from the parent's end). */
  beforeMessage?: number | undefined;
}

export const useRelatives = create<{ open: RelativesRequest | null }>(() => ({ open: null }));

export const relativesUi = {
  open(request: RelativesRequest): void {
    useRelatives.setState({ open: request });
  },
  close(): void {
    useRelatives.setState({ open: null });
  },
};
