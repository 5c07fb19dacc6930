#pragma once
#include <memory>
#include <string>
#include <vector>

namespace geometry {

constexpr double kPi = 3.14159265358979;

class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual std::string name() const { return "shape"; }
};

class Circle : public Shape {
public:
    explicit Circle(double radius) : radius_(radius) {}
    double area() const override { return kPi * radius_ * radius_; }
    std::string name() const override;

private:
    double radius_;
};

struct Rect : Shape {
    double w, h;
    double area() const override { return w * h; }
};

template <typename T>
class Registry {
public:
    void add(std::unique_ptr<T> item) { items_.push_back(std::move(item)); }
    size_t size() const { return items_.size(); }

private:
    std::vector<std::unique_ptr<T>> items_;
};

double total_area(const std::vector<Shape *> &shapes);

namespace detail {
inline int next_id() {
    static int id = 0;
    return ++id;
}
}  // namespace detail

}  // namespace geometry

std::string geometry::Circle::name() const { return "circle"; }

double geometry::total_area(const std::vector<Shape *> &shapes)
{
    double sum = 0;
    for (auto *shape : shapes) {
        sum += shape->area();
    }
    return sum;
}
