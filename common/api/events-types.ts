export interface CoreNotice {
  severity: 'info' | 'warning' | 'error';
  title: string;
  detail?: string;
}
