import { OptionSection } from '../components/option-section.tsx';
import { otherSections } from './other-sections.ts';

export function OtherTab({ options }: { options: Record<string, string> }) {
  return (
    <>
      {otherSections.map((section) => (
        <OptionSection key={section.id} id={section.id} fields={section.fields} options={options} />
      ))}
    </>
  );
}
