/** Chooses a file in a real file input, as the picker does: its FileList is set and `change` fires. */
export function chooseFile(input: HTMLInputElement, file: File) {
  const list = new DataTransfer();
  list.items.add(file);
  input.files = list.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}
