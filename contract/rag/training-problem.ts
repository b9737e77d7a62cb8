/**
 * Something that contributed nothing to a training: where (a source name, file name or URL), what
 * happened in English (`message`, e.g. the address policy's "Refused: ... non-public address"),
 * and `reason`, the locale key the console shows (error.rag.<code> or knowledge.problem.*).
 * Stored on the knowledge record (trainingProblems) and reported by the training endpoints.
 */
export interface TrainingProblem {
  source: string;
  message: string;
  reason: string;
  /** The knowledge source's id when the problem is one of the knowledge's sources (names may repeat). */
  sourceId?: string;
}
