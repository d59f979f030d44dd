import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Workspace, WorkspaceRow } from '../../../../../shared/contract';
import type { CheckableDonation, FileIssue } from '../../../../../shared/donation';
import type { MappedIssue } from '../../../../../shared/mapping';
import {
  checkRow,
  makeRowChecker,
  type CurrencyTotal,
  type RowChecker,
  type WorkspaceMapping,
} from '../../../../../shared/workspace';
import type { PreparedChecks } from '../import/importClient';
import type { AcrossRowsReply } from './acrossRowsState';
import { fileIssuesByRow, resetRequest, updateRequest } from './acrossRowsRequests';
import { canUsePrepared } from './preparedChecks';
import { RowResults, type RecipientTotal } from './rowResults';
import type { UsualMove } from './usualMoves';

const NO_MOVES: UsualMove[] = [];

/** How long after the last edit the across-rows warnings (duplicates, outliers) are recomputed. */
const FILE_CHECK_DELAY_MS = 250;

/**
 * Every row of the open workspace checked with the shared rules, the across-rows warnings from a
 * worker, and the figures above the grid. `prepared` holds the rows already checked in the import
 * worker (a new workspace), so the window does not check them again.
 */
export function useRowChecks(
  initial: Workspace,
  prepared: PreparedChecks | undefined,
  mapping: WorkspaceMapping | null,
  rows: WorkspaceRow[],
  rowsRef: RefObject<WorkspaceRow[]>,
  positionOf: (key: number) => number,
) {
  const checker = useMemo<RowChecker | null>(
    () => (mapping ? makeRowChecker(initial.id, initial.headers, mapping, initial.rows) : null),
    // The number style is detected once per mapping, from the rows as they were opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [mapping],
  );
  const results = useRef(new RowResults());
  const [resultsVersion, setResultsVersion] = useState(0);
  const fileIssuesRef = useRef(new Map<number, MappedIssue[]>());
  const [summary, setSummary] = useState(() => ({
    counts: { rows: 0, valid: 0, invalid: 0, warnings: 0 },
    totals: [] as CurrencyTotal[],
    largest: [] as RecipientTotal[],
    /** Usual amounts the last change moved, flagging or clearing rows it did not touch. */
    moves: NO_MOVES,
  }));
  /**
   * Rows were checked again since the across-rows worker was last asked: the counts wait for its
   * answer, so they are published once, with the row checks and the file checks both done.
   */
  const awaitingFileChecks = useRef(false);
  /** Shows what the results hold now: counts, totals and largest recipients come from RowResults' running sums. */
  const largestTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const publishSummary = useCallback((moves: UsualMove[] = NO_MOVES) => {
    const r = results.current;
    // The figures above the grid follow in a transition, which yields to the frame.
    startTransition(() =>
      setSummary((previous) => ({
        counts: r.counts(fileIssuesRef.current.keys()),
        totals: r.currencyTotals(),
        largest: previous.largest,
        moves: moves.length ? moves : NO_MOVES,
      })),
    );
    // The largest recipients look at every recipient: worked out once the typing pauses.
    if (largestTimer.current) clearTimeout(largestTimer.current);
    largestTimer.current = setTimeout(() => {
      const largest = results.current.largestRecipients();
      setSummary((previous) => ({ ...previous, largest }));
    }, FILE_CHECK_DELAY_MS);
  }, []);
  /** Every row checked at once (the workspace opened): the cells and the figures together. */
  const publish = useCallback(() => {
    setResultsVersion((v) => v + 1);
    publishSummary();
  }, [publishSummary]);
  /** Rows checked again: the cells' marks change at once, the figures once the file checks follow. */
  const rowsChecked = useCallback(() => {
    awaitingFileChecks.current = true;
    setResultsVersion((v) => v + 1);
  }, []);
  const [fileIssues, setFileIssues] = useState<Map<number, MappedIssue[]>>(() => new Map());

  // Across-rows warnings (duplicates, outliers) follow the rows, in a worker, once the typing stops.
  const acrossWorker = useRef<{ worker: Worker; checker: RowChecker; rows: WorkspaceRow[] } | null>(null);
  const acrossRequest = useRef(0);
  const changedKeys = useRef(new Set<number>());
  useEffect(
    () => () => {
      acrossWorker.current?.worker.terminate();
      acrossWorker.current = null;
    },
    [],
  );
  /** Shows the across-rows warnings a worker found, with `row` as a position in `keys`. */
  const showFileIssues = useCallback(
    (
      checkerUsed: RowChecker,
      issues: readonly FileIssue[],
      keys: readonly number[],
      moves: UsualMove[] = NO_MOVES,
    ) => {
      const byKey = fileIssuesByRow(issues, keys, checkerUsed.compiled.columnOfField);
      fileIssuesRef.current = byKey;
      setFileIssues(byKey);
      setResultsVersion((v) => v + 1);
      // An answer to rows as they were before the latest edit: its figures wait for the next one.
      if (!awaitingFileChecks.current) publishSummary(moves);
    },
    [publishSummary],
  );
  const adoptAcrossWorker = useCallback(
    (worker: Worker, checkerUsed: RowChecker, rowsNow: WorkspaceRow[]) => {
      worker.onmessage = (event: MessageEvent<AcrossRowsReply>) => {
        if (event.data.id !== acrossRequest.current) return;
        showFileIssues(checkerUsed, event.data.issues, event.data.keys, event.data.moves);
      };
      acrossWorker.current = { worker, checker: checkerUsed, rows: rowsNow };
      changedKeys.current.clear();
    },
    [showFileIssues],
  );

  // The import worker's check of every row is taken as it is when it used this very checker.
  const preparedChecks = useRef(prepared);
  // Every row checked when the workspace opens or its mapping changes.
  useEffect(() => {
    if (!checker) return;
    const ready = preparedChecks.current;
    preparedChecks.current = undefined;
    if (ready && mapping && canUsePrepared(ready, mapping, checker, rows)) {
      results.current = RowResults.fromSeed(ready.seed, {
        rowOf: (key) => rowsRef.current[positionOf(key)],
        check: (row) => checkRow(checker, row),
      });
      acrossWorker.current?.worker.terminate();
      adoptAcrossWorker(ready.worker, checker, rows);
      const keys = rows.map((r) => r.key);
      queueMicrotask(() => showFileIssues(checker, ready.fileIssues, keys));
      return;
    }
    ready?.worker.terminate();
    const fresh = new RowResults();
    for (const row of rows) fresh.set(row.key, checkRow(checker, row));
    results.current = fresh;
    queueMicrotask(publish);
    // Only the checker triggers a full check; single edits re-check their own rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checker]);

  useEffect(() => {
    if (!checker || results.current.size === 0) {
      // No rows left to check across: the figures need not wait.
      if (awaitingFileChecks.current) {
        awaitingFileChecks.current = false;
        publishSummary();
      }
      return;
    }
    const timer = setTimeout(() => {
      const donationOf = (key: number) => results.current.get(key)?.donation as CheckableDonation | undefined;
      const state = acrossWorker.current;
      if (!state || state.checker !== checker) {
        state?.worker.terminate();
        const id = ++acrossRequest.current;
        const worker = new Worker(new URL('./acrossRowsWorker.ts', import.meta.url), { type: 'module' });
        adoptAcrossWorker(worker, checker, rows);
        awaitingFileChecks.current = false;
        worker.postMessage(resetRequest(id, rows, donationOf, checker.referenceKey));
        return;
      }
      const before = state.rows;
      state.rows = rows;
      const request = updateRequest(acrossRequest.current + 1, before, rows, changedKeys.current, donationOf);
      const waiting = awaitingFileChecks.current;
      awaitingFileChecks.current = false;
      if (!request) {
        // Nothing the checks across rows look at changed: the row checks alone settle the figures.
        if (waiting) publishSummary();
        return;
      }
      acrossRequest.current = request.id;
      changedKeys.current.clear();
      state.worker.postMessage(request);
    }, FILE_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [checker, rows, resultsVersion, adoptAcrossWorker, publishSummary]);

  /** Checks rows again after they changed. */
  const recheck = useCallback(
    (changed: WorkspaceRow[]) => {
      if (!checker) return;
      for (const row of changed) {
        results.current.set(row.key, checkRow(checker, row));
        changedKeys.current.add(row.key);
      }
      rowsChecked();
    },
    [checker, rowsChecked],
  );

  /** Forgets the checks of rows that were removed. */
  const forget = useCallback(
    (keys: Iterable<number>) => {
      for (const key of keys) results.current.remove(key);
      rowsChecked();
    },
    [rowsChecked],
  );

  const resultOf = useCallback((key: number) => results.current.get(key), []);
  /** Whether a row is valid, without working out its issues (for filters over every row). */
  const isValid = useCallback((key: number) => results.current.isValid(key), []);
  /** Whether a row has a warning of its own, without working out its issues. */
  const hasWarning = useCallback((key: number) => results.current.hasWarning(key), []);

  return { checker, resultOf, isValid, hasWarning, resultsVersion, fileIssues, summary, recheck, forget };
}
