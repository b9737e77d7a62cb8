import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A React.lazy component whose chunk can be fetched ahead of its first render (hover, intent). */
export type PreloadableComponent<P> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<ComponentType<P>> };

/**
 * React.lazy plus a `preload()` that starts the same import. Hand-written: the few lines React
 * lacks (react-lazy-with-preload does the same and is unmaintained). A failed load is forgotten,
 * so the next preload or render tries again.
 */
export function lazyWithPreload<P>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    }));
  return Object.assign(lazy(() => preload().then((component) => ({ default: component }))), { preload });
}

/** Starts loading a component's chunk when it is a preloadable lazy one; resolves at once otherwise. */
export function preloadComponent(component: unknown): Promise<unknown> {
  const preload = (component as Partial<PreloadableComponent<unknown>> | null | undefined)?.preload;
  return typeof preload === 'function' ? preload() : Promise.resolve();
}
