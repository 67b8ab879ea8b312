import type { AssessmentPageContent } from '../../../src/content/insights-schema.ts';
import { AssessmentForm } from '../../components/AssessmentForm.tsx';

/** /dialog-assessment: the lead-capture form, complete as plain HTML before any script. */
export function AssessmentPage({ content }: { content: AssessmentPageContent }) {
  return <AssessmentForm content={content} idPrefix="assessment" />;
}
