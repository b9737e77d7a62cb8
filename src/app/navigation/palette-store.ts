import { createSpotlight } from '@mantine/spotlight';

/** The console's one command palette: its own store, so the sidebar's button can open it. */
export const [paletteStore, palette] = createSpotlight();
