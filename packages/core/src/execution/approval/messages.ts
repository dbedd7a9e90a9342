/** The model-facing texts of approval outcomes (one place, like pipeline/messages.ts). */
export const approvalMessages = {
  required: (tool: string, reason: string | undefined) =>
    `The call to "${tool}" is valid and waits for a person's approval${reason ? ` (${reason})` : ''}. It has not run yet; do not call it again. Tell the user it awaits approval.`,
  denied: (tool: string, by: string | undefined, reason: string | undefined) =>
    `${by ? `${by} declined` : 'A person declined'} the call to "${tool}"${reason ? `: ${sentence(reason)}` : '.'} It did not run. Do not call it again with the same arguments; answer the user or ask them what to do instead.`,
  notFound: () =>
    'There is no pending approval with this id: it is unknown, has expired or was already decided. Nothing ran.',
  notAllowed: (tool: string, by: string | undefined) =>
    `${by ? `"${by}"` : 'This approver'} may not decide on the call to "${tool}". The approval is still pending.`,
  notTheBoundCall: (tool: string) =>
    `The call to "${tool}" did not run: it is not the call that was approved or enqueued (its parameters changed on the way). Do not retry it.`,
  storeFailed: (tool: string) =>
    `The call to "${tool}" needs a person's approval, but it could not be filed. It did not run; try again later.`,
};

/** A reason as the end of a sentence: a full stop added unless it ends with one (or `!`, `?`). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
