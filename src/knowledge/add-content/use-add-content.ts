import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadedFile } from '../../../runtime/transport/rest-transport.ts';
import type { RagChunk, RagTrainingResult, RagTrainingStatus } from '../rag-api.ts';
import { failureMessage } from '../training-outcome.ts';
import { useTrainingProgress } from '../use-training-progress.ts';
import { ItemError, MAX_ITEMS, readItem, sourceInput, type ChunkSettings, type ContentItem } from './content-item.ts';

/** Everything the flow asks of the server; the dialog passes the real calls, tests fakes. */
export interface AddContentDeps {
  upload: (file: File) => Promise<UploadedFile>;
  parseFile: (filepath: string) => Promise<{ content: string }>;
  parseUrl: (url: string) => Promise<{ content: string }>;
  chunk: (text: string, settings: ChunkSettings) => Promise<{ chunks: RagChunk[] }>;
  createSource: (data: Record<string, unknown>) => Promise<{ _id?: unknown }>;
  /** Adds the new sources to the knowledge base (keeping the ones it has). */
  linkSources: (ids: string[]) => Promise<void>;
  train: () => Promise<RagTrainingResult>;
  status: (signal: AbortSignal) => Promise<RagTrainingStatus>;
}

/** reading: items are being read; saving: sources created; training: the index is rebuilt. */
export type FlowPhase = 'idle' | 'saving' | 'training' | 'done' | 'failed';

export interface FlowProgress {
  phase: FlowPhase;
  /** 0..100 for the progress bar. */
  percent: number;
  /** A locale key and its values, what the bar says. */
  label: { key: string; values?: Record<string, unknown> };
}

export const DEFAULT_CHUNK_SETTINGS: ChunkSettings = { chunkSize: 1000, chunkOverlap: 100 };

/**
 * The "add content" flow without its screen: items are read (uploaded, extracted, chunked) as
 * soon as they are added, one at a time, so their chunks can be previewed; `submit` turns every
 * ready item into a knowledge source, adds them to the base and trains it, polling the training's
 * progress. A failing item keeps its reason and never stops the others.
 */
export function useAddContent(deps: AddContentDeps) {
  const { t } = useTranslation();
  const [items, setItems] = useState<ContentItem[]>([]);
  const [settings, setSettingsState] = useState<ChunkSettings>(DEFAULT_CHUNK_SETTINGS);
  const [phase, setPhase] = useState<FlowPhase>('idle');
  const [saving, setSaving] = useState({ done: 0, total: 0 });
  const [result, setResult] = useState<RagTrainingResult | null>(null);
  const [flowError, setFlowError] = useState<string | null>(null);
  const [refused, setRefused] = useState(0);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const busyRef = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const patch = useCallback((key: string, change: Partial<ContentItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  // Read waiting items one at a time (a 2-core server parses one document per worker slot anyway).
  useEffect(() => {
    if (busyRef.current) return;
    const next = items.find((item) => item.status === 'waiting');
    if (!next) return;
    busyRef.current = true;
    patch(next.key, { status: 'reading', error: undefined });
    const chosen = settingsRef.current;
    readItem(next, depsRef.current, chosen)
      .then((read) => {
        if (!mounted.current) return;
        // Settings changed while reading: chunk again with the new ones.
        const stale = settingsRef.current !== chosen;
        patch(next.key, { ...read, status: stale ? 'waiting' : 'ready' });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (mounted.current) patch(next.key, { status: 'failed', error: error instanceof ItemError ? error.key : failureMessage(error, t) });
      })
      .finally(() => {
        busyRef.current = false;
        // Wake the effect for the next waiting item.
        if (mounted.current) setItems((current) => [...current]);
      });
  }, [items, patch, t]);

  const add = useCallback((added: ContentItem[]) => {
    const room = Math.max(0, MAX_ITEMS - itemsRef.current.filter((item) => item.status !== 'saved').length);
    setRefused(Math.max(0, added.length - room));
    setItems((current) => [...current, ...added.slice(0, room)]);
    setPhase((current) => (current === 'done' || current === 'failed' ? 'idle' : current));
  }, []);

  const remove = useCallback((key: string) => setItems((current) => current.filter((item) => item.key !== key)), []);

  /** New chunk settings chunk every read item again (their extracted text is kept). */
  const setSettings = useCallback((next: ChunkSettings) => {
    setSettingsState(next);
    setItems((current) => current.map((item) => (item.status === 'ready' ? { ...item, status: 'waiting', chunks: undefined } : item)));
  }, []);

  const submit = useCallback(async () => {
    const ready = itemsRef.current.filter((item) => item.status === 'ready');
    if (ready.length === 0 || phase === 'saving' || phase === 'training') return;
    setFlowError(null);
    setResult(null);
    setPhase('saving');
    setSaving({ done: 0, total: ready.length });
    const created: string[] = [];
    for (const item of ready) {
      patch(item.key, { status: 'saving' });
      try {
        const source = await depsRef.current.createSource(sourceInput(item));
        const id = String(source._id ?? '');
        created.push(id);
        patch(item.key, { status: 'saved', sourceId: id });
      } catch (error) {
        console.error(error);
        patch(item.key, { status: 'failed', error: failureMessage(error, t) });
      }
      setSaving((current) => ({ ...current, done: current.done + 1 }));
    }
    if (created.length === 0) {
      setPhase('failed');
      setFlowError('knowledge.add.error.nothingSaved');
      return;
    }
    try {
      await depsRef.current.linkSources(created);
      // While training, useTrainingProgress polls the status (below).
      setPhase('training');
      const trained = await depsRef.current.train();
      if (!mounted.current) return;
      setResult(trained);
      // A problem of a new source (no text, unreadable) goes on its item.
      for (const problem of trained.problems ?? []) {
        const sourceId = (problem as { sourceId?: string }).sourceId;
        const item = sourceId ? itemsRef.current.find((candidate) => candidate.sourceId === sourceId) : undefined;
        if (item) patch(item.key, { error: problem.reason });
      }
      setPhase('done');
    } catch (error) {
      console.error(error);
      if (!mounted.current) return;
      setFlowError(failureMessage(error, t));
      setPhase('failed');
    }
  }, [patch, phase, t]);

  const pollStatus = useCallback((signal: AbortSignal) => depsRef.current.status(signal), []);
  const training = useTrainingProgress(phase === 'training', pollStatus);
  const reading = items.filter((item) => item.status === 'waiting' || item.status === 'reading').length;
  const readyCount = items.filter((item) => item.status === 'ready').length;
  const progress = flowProgress({ phase, items, saving, training });
  return { items, add, remove, settings, setSettings, submit, phase, progress, result, flowError, refused, reading, readyCount };
}

/** One bar for the whole flow: reading the items, then saving them, then training. */
export function flowProgress(state: {
  phase: FlowPhase;
  items: readonly ContentItem[];
  saving: { done: number; total: number };
  training: RagTrainingStatus | null;
}): FlowProgress {
  const { phase, items, saving, training } = state;
  if (phase === 'saving') {
    return { phase, percent: saving.total ? Math.round((40 * saving.done) / saving.total) : 0, label: { key: 'knowledge.add.progress.saving', values: { done: saving.done, total: saving.total } } };
  }
  if (phase === 'training') {
    const fraction = training && training.total > 0 ? training.done / training.total : 0;
    const key = training?.phase ? `knowledge.progress.${training.phase}` : 'knowledge.progress.running';
    return { phase, percent: 40 + Math.round(60 * fraction), label: { key, values: { done: training?.done ?? 0, total: training?.total ?? 0 } } };
  }
  if (phase === 'done') return { phase, percent: 100, label: { key: 'knowledge.add.progress.done' } };
  const counted = items.filter((item) => item.status !== 'saved');
  const read = counted.filter((item) => item.status === 'ready' || item.status === 'failed').length;
  return {
    phase,
    percent: counted.length ? Math.round((100 * read) / counted.length) : 0,
    label: { key: 'knowledge.add.progress.reading', values: { done: read, total: counted.length } },
  };
}
