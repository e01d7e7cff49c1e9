// A secret given on the command line never reaches the output: wherever it shows (an error a
// server echoed, a network message), it is replaced by the form the journal shows.
import { redactKey } from '../core/state/plans.js';

/** `text` with every occurrence of `secret` replaced by its redacted form. */
export function maskKey(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  return text.split(secret).join(redactKey(secret));
}
