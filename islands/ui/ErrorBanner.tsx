import { TriangleAlert } from "./Icon.tsx";

interface Props {
  message: string;
  onDismiss: () => void;
}

/** A failure the person should see at once, until they dismiss it. Static pages use ErrorBanner.astro. */
export function ErrorBanner({ message, onDismiss }: Props) {
  return (
    <div role="alert" className="error-banner">
      <TriangleAlert size="1.25em" />
      <p>{message}</p>
      <button type="button" className="outline secondary" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
