import type { ReactNode } from 'react';
import { assessmentHref, useSite } from '../../src/page-api/site-context.tsx';

type Variant = 'primary' | 'secondary' | 'ghost';

/** A link that looks like a button. External addresses open in a new tab without an opener. */
export function ButtonLink({ href, children, variant = 'primary', className }: { href: string; children: ReactNode; variant?: Variant; className?: string }) {
  const external = /^https?:/.test(href);
  return (
    <a className={`button button--${variant}${className ? ` ${className}` : ''}`} href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
      {external && <span className="visually-hidden"> (opens in a new tab)</span>}
    </a>
  );
}

/** 'Test Your Data Maturity': the external survey when configured, else the on-site assessment. */
export function AssessmentButton({ variant = 'primary', label = 'Test Your Data Maturity' }: { variant?: Variant; label?: string }) {
  const { href } = assessmentHref(useSite().settings);
  return <ButtonLink href={href} variant={variant}>{label}</ButtonLink>;
}

export function TalkButton({ variant = 'secondary', label = "Let's Talk Data" }: { variant?: Variant; label?: string }) {
  return <ButtonLink href="/contact" variant={variant}>{label}</ButtonLink>;
}
