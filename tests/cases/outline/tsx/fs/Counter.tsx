import { useState } from "react";

export interface CounterProps {
  start?: number;
  step: number;
  label: string;
}

const DEFAULT_STEP = 1;

export function Counter({ start = 0, step, label }: CounterProps) {
  const [count, setCount] = useState(start);
  return (
    <div className="counter">
      <span>
        {label}: {count}
      </span>
      <button onClick={() => setCount(count + step)}>+{step}</button>
      <button onClick={() => setCount(count - step)}>-{step}</button>
    </div>
  );
}

export const Reset = ({ onReset }: { onReset: () => void }) => (
  <button type="reset" onClick={onReset}>
    reset
  </button>
);

export default class Panel extends React.Component<{ title: string }> {
  state = { open: false };

  toggle() {
    this.setState({ open: !this.state.open });
  }

  render() {
    return (
      <section>
        <h2 onClick={() => this.toggle()}>{this.props.title}</h2>
        {this.state.open && <Counter step={DEFAULT_STEP} label="items" />}
      </section>
    );
  }
}
