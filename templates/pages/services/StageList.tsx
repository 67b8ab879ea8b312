import type { STAGES } from '../../../src/content/services-schema.ts';

/** The four stages as a numbered list of cards, each saying what the stage means here. */
export function StageList({ stages }: { stages: Array<{ name: (typeof STAGES)[number]; text: string }> }) {
  return (
    <ol className="stages grid grid--4">
      {stages.map((stage, i) => (
        <li key={stage.name} className="card stage">
          <span className="card__number" aria-hidden="true">{i + 1}</span>
          <h3><span className="visually-hidden">Stage {i + 1}: </span>{stage.name}</h3>
          <p>{stage.text}</p>
        </li>
      ))}
    </ol>
  );
}
