export type BulkStatus = 'PENDING' | 'UPLOADED' | 'VALIDATED' | 'PROCESSING' | 'PROCESSED' | 'ERROR';

export interface BulkRecord {
  id: string;
  status: BulkStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  key: string;
  securityToken: string;
  /** Virtual time of the next automatic step, null when nothing is pending. */
  nextStepAt: number | null;
  uploadedBytes: number | null;
  counts: { uploaded?: number; accepted?: number; invalid?: number; failed?: number };
  error: null | {
    form: 'file' | 'donations' | 'extraction';
    detail: string;
    fileName: 'donations.gz' | 'donation-errors.gz';
  };
}
