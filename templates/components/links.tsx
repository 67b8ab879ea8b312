import type { ReactNode } from 'react';
import type { AssessmentFormName } from '../../src/content/assessment-forms.ts';
import { assessmentHref, NEW_TAB_HINT, useSite } from '../../src/page-api/site-context.tsx';
import { ExternalIcon } from '../../islands/shared/icons.tsx';

type Variant = 'primary' | 'secondary' | 'ghost';

/** A link that looks like a button. External addresses open in a new tab without an opener, and say so. */
export function ButtonLink({ href, children, variant = 'primary', className }: { href: string; children: ReactNode; variant?: Variant; className?: string }) {
  const external = /^https?:/.test(href);
  return (
    <a className={`button button--${variant}${className ? ` ${className}` : ''}`} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
      {external && <><ExternalIcon /><span className="visually-hidden">{NEW_TAB_HINT}</span></>}
    </a>
  );
}

/** 'Test Your Data Maturity': the named external survey when its address is set, else the on-site assessment. */
export function AssessmentButton({ form = 'organisation', variant = 'primary', label = 'Test Your Data Maturity' }: { form?: AssessmentFormName; variant?: Variant; label?: string }) {
  const { href } = assessmentHref(useSite().settings, form);
  return <ButtonLink href={href} variant={variant}>{label}</ButtonLink>;
}

export function TalkButton({ variant = 'secondary', label = "Let's Talk Data" }: { variant?: Variant; label?: string }) {
  return <ButtonLink href="/contact" variant={variant}>{label}</ButtonLink>;
}
