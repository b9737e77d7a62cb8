import { createContext, useContext, type ComponentType } from 'react';

/** Which running job a long CRUD action waits on: an import or an export of one entity. */
export interface ActiveJobProps {
  kind: 'import' | 'export';
  entity: string;
}

/**
 * Where the app plugs in the progress of the job behind a long CRUD action (src/jobs reads the
 * jobs API). The runtime knows no endpoint: without the app's component nothing is shown.
 */
export const ActiveJobProgressContext = createContext<ComponentType<ActiveJobProps> | null>(null);

/** The app's progress bar for the running `kind` job of `entity`, if the app provides one. */
export function ActiveJobProgress(props: ActiveJobProps) {
  const Progress = useContext(ActiveJobProgressContext);
  return Progress ? <Progress {...props} /> : null;
}
