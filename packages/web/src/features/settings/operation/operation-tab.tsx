import { OptionSection } from '../components/option-section.tsx';
import { LogSection } from './log-section.tsx';
import { ModelRatioSection } from './model-ratio-section.tsx';
import { operationSections } from './operation-sections.ts';

export function OperationTab({ options }: { options: Record<string, string> }) {
  const [general, drawing, sensitive, ...rest] = operationSections;
  return (
    <>
      {[general, drawing, sensitive].map((section) => section && <OptionSection key={section.id} id={section.id} fields={section.fields} options={options} />)}
      <LogSection options={options} />
      {rest.map((section) => (
        <OptionSection key={section.id} id={section.id} fields={section.fields} options={options} />
      ))}
      <ModelRatioSection options={options} />
    </>
  );
}
