/**
 * Toasts without React: one holder per page (server-rendered in the layout, so its live region
 * exists before anything is announced), one toast shown at a time, 4 seconds by default.
 */
export interface Toast { id: number; title: string; description?: string; variant: 'default' | 'destructive'; duration: number }
export type ToastInput = Partial<Omit<Toast, 'id'>> & { title: string };

export const TOAST_DURATION = 4000;

/** The holder's state: at most one toast; a new one replaces the one showing. */
export interface ToastState { current: Toast | null; nextId: number }

export const emptyToasts: ToastState = { current: null, nextId: 1 };

export function showToast(state: ToastState, input: ToastInput): ToastState {
  const toast: Toast = { variant: 'default', duration: TOAST_DURATION, ...input, id: state.nextId };
  return { current: toast, nextId: state.nextId + 1 };
}

export function dismissToast(state: ToastState, id: number): ToastState {
  return state.current?.id === id ? { ...state, current: null } : state;
}

let state = emptyToasts;
let timer: ReturnType<typeof setTimeout> | undefined;

function holder(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-toaster] ol');
}

function render() {
  const list = holder();
  if (!list) return;
  list.replaceChildren();
  const toast = state.current;
  if (!toast) return;
  const item = document.createElement('li');
  item.className = `toast toast--${toast.variant}`;
  if (toast.variant === 'destructive') item.setAttribute('role', 'alert');
  const title = document.createElement('p');
  title.className = 'toast__title';
  title.textContent = toast.title;
  item.append(title);
  if (toast.description) {
    const text = document.createElement('p');
    text.className = 'toast__text';
    text.textContent = toast.description;
    item.append(text);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast__close';
  close.setAttribute('aria-label', 'Dismiss notification');
  close.textContent = '×';
  close.addEventListener('click', () => dismiss(toast.id));
  item.append(close);
  // Reading takes time: hovering or focusing the toast holds it open (WCAG 2.2.1).
  item.addEventListener('pointerenter', () => clearTimeout(timer));
  item.addEventListener('focusin', () => clearTimeout(timer));
  item.addEventListener('pointerleave', () => schedule(toast));
  list.append(item);
}

function schedule(toast: Toast) {
  clearTimeout(timer);
  timer = setTimeout(() => dismiss(toast.id), toast.duration);
}

export function dismiss(id: number) {
  state = dismissToast(state, id);
  render();
}

/** Show a toast: the API the form islands and the article cards call. */
export function toast(input: ToastInput): void {
  state = showToast(state, input);
  render();
  if (state.current) schedule(state.current);
}
