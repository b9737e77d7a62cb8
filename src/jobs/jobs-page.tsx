import { JobsPanel } from './jobs-panel.tsx';

/** /jobs: the signed-in user's recent jobs (the server decides which they may see). */
export default function JobsPage() {
  return <JobsPanel limit={50} />;
}
