/** The chunk of every /crud/* page (and the CRUD runtime it brings); one import for the route and its preloads. */
export const loadCrudRoutePage = () => import('./crud-route-page.tsx');
