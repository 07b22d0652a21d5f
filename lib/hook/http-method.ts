/** Whether a request of `method` carries no body: fetch and XHR refuse one for GET and HEAD. */
export const carriesNoBody = (method: string): boolean => /^(GET|HEAD)$/.test(method);
