/** `<{label}.{jobId}@{our host}>`: the same for every attempt of a job, so a repeated mail is recognisable. */
export const jobMessageId = (label: string, jobId: string, publicOrigin: string) =>
  `<${label}.${jobId}@${new URL(publicOrigin).hostname}>`;
